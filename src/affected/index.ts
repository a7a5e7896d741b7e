export * from './affected.js';
export * from './report.js';
