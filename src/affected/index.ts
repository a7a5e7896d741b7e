export * from './affected.js';
export * from './repo.js';
