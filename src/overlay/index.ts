export { runOverlay, emptySummary } from './repo.js';
export type { OverlayOptions } from './repo.js';
export { compareCopies } from './compare.js';
export { findSkip, normaliseDir } from './skip-sets.js';
export type { SkipSets } from './skip-sets.js';
export { maskText, pinCorrespondence } from './mask.js';
export type * from './types.js';
