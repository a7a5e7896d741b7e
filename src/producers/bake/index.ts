/** The docker-bake recipe kind (barrel): bake files (HCL or JSON) and the targets they build. */
export { readBakeFile } from './repo.js';
export { findBakeFiles } from '../finders.js';
export { readBake, type BakeValue } from './reader.js';
export { parseHcl, HclSyntaxError, type HclAttribute, type HclBlock, type HclBody, type HclExpr } from './hcl.js';
