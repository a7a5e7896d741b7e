/** The release operations as a library (barrel): promote, mirror, compare, their exit codes and the pure core. */
export { compare, compareExitCode, emptyCompareSummary, mirror, mirrorExitCode, promote, promoteExitCode } from './repo.js';
export type { CompareExitFlags, CompareOptions, MirrorOptions, PromoteOptions, ReleaseBase } from './repo.js';
export { highestSemver, isUnder, mapPrefix, parseSemver, renamePin, retagPin } from './engine.js';
export type * from './types.js';
