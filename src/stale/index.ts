export * from './types.js';
export * from './history.js';
export * from './repo.js';
export * from './findings.js';
export * from './policy.js';
export * from './commit-meta.js';
export { startHistory, type StartedHistory } from './window.js';
export { judgeStale, selectImages, staleConfigOptions, treeForStale, type StaleTree } from './judge.js';
