export * from './types.js';
export * from './images.js';
export * from './resolve.js';
