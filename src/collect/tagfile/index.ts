export { collectTagFile } from './collect.js';
