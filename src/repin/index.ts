/** `repin` as a library (barrel): the repo-level run, its target and plan, and the exit code. */
export { repin, repinExitCode } from './repo.js';
export type { RepinOptions } from './repo.js';
export type * from './types.js';
export { resolveRepository, resolveTarget } from './target.js';
export { planRepin } from './plan.js';
export { listFiles, readSmallText } from './sweep.js';
export { kindOfPins } from './render.js';
