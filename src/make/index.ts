/**
 * A pragmatic Make reader (barrel): read a Makefile (with its includes) into a
 * database of variables and rules, and expand a target's recipe with `$@` bound.
 */
export { diskFileSystem, repoFileSystem, loadMakefile, readerWithEnvironment } from './repo.js';
export type { LoadMakefileOptions } from './repo.js';
export { expand, lookupVariable, type ExpandContext } from './expand.js';
export { findRule, targetNames, type MakeDatabase } from './database.js';
export { expandRecipe, type ExpandedCommand, type ExpandedRecipe } from './recipe.js';
export { hasMarker, marker, readableMarkers } from './markers.js';
export { matchPattern, words } from './scan.js';
export { MakeReader } from './reader.js';
export { VariableStore } from './variables.js';
export type * from './types.js';
