/** The GitHub Actions recipe kind (barrel): workflow files and the image builds in them. */
export { findWorkflows, readWorkflowFile, WORKFLOWS_DIR } from './repo.js';
export { readWorkflow } from './reader.js';
export { evaluate, interpolate } from './expressions.js';
export { expandMatrix } from './matrix.js';
