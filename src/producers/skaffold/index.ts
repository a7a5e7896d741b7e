/** The Skaffold recipe kind (barrel): skaffold.yaml artifacts as BuildRecipes. */
export { readSkaffoldFile } from './repo.js';
export { findSkaffoldFiles } from '../finders.js';
export { readSkaffold, withDefaultRepo, type SkaffoldReadOptions } from './reader.js';
