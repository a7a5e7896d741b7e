export { collectDockerfile, unresolvedFromArgs } from './collect.js';
