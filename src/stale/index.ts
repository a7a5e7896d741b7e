export * from './types.js';
export * from './engine.js';
export * from './report.js';
export * from './findings.js';
export * from './policy.js';
export * from './commit-meta.js';
