/** The tree-state snapshot: the scan and image knowledge of a work tree, reused while the paths it read are unchanged. */
export * from './repo.js';
export * from './check.js';
export * from './recovery.js';
