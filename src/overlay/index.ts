export { runOverlay, emptySummary } from './engine.js';
export type { OverlayOptions } from './engine.js';
export { compareCopies } from './compare.js';
export { parseDirList, findSkip } from './skip-sets.js';
export { maskText, pinCorrespondence } from './mask.js';
export type * from './types.js';
