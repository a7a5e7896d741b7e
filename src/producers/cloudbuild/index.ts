/** The Google Cloud Build recipe kind (barrel): cloudbuild.yaml steps as BuildRecipes. */
export { readCloudBuildFile } from './repo.js';
export { findCloudBuildFiles, isCloudBuildName } from '../finders.js';
export { readCloudBuild, type CloudBuildReadOptions } from './reader.js';
export { BUILTIN_SUBSTITUTIONS, substituter } from './substitutions.js';
