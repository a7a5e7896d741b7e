export * from './run.js';
export * from './graph.js';
export * from './digest-history.js';
export * from './changed-paths.js';
export * from './patch-id.js';
export * from './shallow.js';
export * from './tags.js';
export * from './objects.js';
