/** The docker compose recipe kind (barrel): compose files, their .env interpolation, and the services they build. */
export { findComposeFiles, projectEnv, readComposeFile } from './repo.js';
export { readCompose } from './reader.js';
export { interpolateCompose, parseDotEnv, type Interpolated } from '../../util/compose-interpolate.js';
