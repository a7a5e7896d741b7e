/** The docker compose recipe kind (barrel): compose files, their .env interpolation, and the services they build. */
export { projectEnv, readComposeFile } from './repo.js';
export { findComposeFiles } from '../finders.js';
export { readCompose } from './reader.js';
export { interpolateCompose, parseDotEnv, type Interpolated } from '../../util/compose-interpolate.js';
