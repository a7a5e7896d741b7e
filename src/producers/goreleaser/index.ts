/** The goreleaser recipe kind (barrel): goreleaser configs and the images (dockers, dockers_v2, kos) they release. */
export { readGoreleaserFile } from './repo.js';
export { findGoreleaserFiles } from '../finders.js';
export { readGoreleaser } from './reader.js';
