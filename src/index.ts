/** The pinwatch library: everything the CLI does, importable. */
export * from './errors.js';
export * from './reference/index.js';
export * from './model/index.js';
export type * from './config/types.js';
