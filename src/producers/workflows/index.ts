/** The GitHub Actions recipe kind (barrel): workflow files and the image builds in them. */
export { readWorkflowFile } from './repo.js';
export { findWorkflows, WORKFLOWS_DIR } from '../finders.js';
export { readWorkflow } from './reader.js';
export { evaluate, interpolate } from './expressions.js';
export { expandMatrix } from './matrix.js';
