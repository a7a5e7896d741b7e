/** Build inputs: which repo paths, when changed, change an image (public API of src/sources). */
export { deriveBuildInputs } from './derive.js';
export { buildArgsOf } from '../dockerfile/build-args.js';
export type { BuildInputsRequest } from './derive.js';
export { inputMatcher, inputKind, ignoredBy, pathIndex } from './matcher.js';
export type { InputMatcher, PathIndex } from './matcher.js';
export { dockerignoreEntries } from './dockerignore.js';
export { goImportClosure } from './go/closure.js';
export type * from './types.js';
