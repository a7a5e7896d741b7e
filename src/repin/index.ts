/** `repin` as a library (barrel): the repo-level run, its target and plan, and the exit code. */
export { repin, repinExitCode } from './repo.js';
export type { RepinOptions } from './repo.js';
export type * from './types.js';
export { resolveRepository, resolveTarget } from './target.js';
export { planRepin } from './plan.js';
export { mergeBuiltImages, parseBuildMetadata } from './build-metadata.js';
export type { BuildMetadata, BuiltImage } from './build-metadata.js';
export { batchRepinExitCode, repinBuilt } from './batch.js';
export type { BatchRepinResult } from './batch.js';
export { listFiles, readSmallText } from './sweep.js';
export { kindOfPins } from './render.js';
