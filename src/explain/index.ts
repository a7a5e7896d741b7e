export * from './repo.js';
