/** The Skaffold recipe kind (barrel): skaffold.yaml artifacts as BuildRecipes. */
export { findSkaffoldFiles, readSkaffoldFile } from './repo.js';
export { readSkaffold, withDefaultRepo, type SkaffoldReadOptions } from './reader.js';
