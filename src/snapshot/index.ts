/** The tree-state snapshot: the scan and image knowledge of a work tree, reused while the paths it read are unchanged. */
export * from './repo.js';
