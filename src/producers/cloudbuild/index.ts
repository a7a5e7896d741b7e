/** The Google Cloud Build recipe kind (barrel): cloudbuild.yaml steps as BuildRecipes. */
export { findCloudBuildFiles, isCloudBuildName, readCloudBuildFile } from './repo.js';
export { readCloudBuild, type CloudBuildReadOptions } from './reader.js';
export { BUILTIN_SUBSTITUTIONS, substituter } from './substitutions.js';
