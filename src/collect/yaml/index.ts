export { collectYaml } from './collect.js';
