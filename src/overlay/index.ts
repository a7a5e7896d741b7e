export { runOverlay, emptySummary } from './engine.js';
export type { OverlayOptions } from './engine.js';
export { compareCopies } from './compare.js';
export { findSkip } from './skip-sets.js';
export type { SkipSets } from './skip-sets.js';
export { maskText, pinCorrespondence } from './mask.js';
export type * from './types.js';
