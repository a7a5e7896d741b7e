/** Scanning a tree for pins: the walk, file reading, and the scan result. */
export { scanRepo, comparePins } from './repo.js';
export type { ScanOptions } from './repo.js';
export { walkTree, walkReadsPath } from './walk.js';
export type { Candidate, WalkOptions, WalkResult } from './walk.js';
export { listRecipeTree } from './recipe-tree.js';
export type { RecipeTree } from './recipe-tree.js';
export { fileKind } from './kind.js';
export { readTextFile, encodeText, MAX_FILE_BYTES } from './read.js';
export type { ReadOutcome, TextRead } from './read.js';
export { collectRead } from './read-collect.js';
export type * from './types.js';
export type { KustomizeImage, KustomizeOverlay } from './kustomize.js';
