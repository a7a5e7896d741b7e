export * from './types.js';
export * from './digest-history.js';
export * from './git-tag.js';
export * from './registry.js';
export * from './resolve.js';
export * from './tag-trees.js';
export * from './sources.js';
export * from './subjects.js';
