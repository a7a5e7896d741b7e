/** The persistent cache: a repository's facts by content (scan results, recipe models, history facts). */
export * from './engine.js';
export * from './store.js';
