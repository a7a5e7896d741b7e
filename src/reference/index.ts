export * from './reference.js';
export { digestsInLine, digestsInText } from './digest-text.js';
