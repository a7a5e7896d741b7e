export { collectDockerfile } from './collect.js';
