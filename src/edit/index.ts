/** Byte-minimal text edits: span splices, and YAML scalar edits that re-parse to verify. */
export { applySpans, shiftOffset, sortedEdits } from './splice.js';
export type { SpanEdit } from './splice.js';
export { editYaml } from './yaml.js';
export type { YamlEditResult } from './yaml.js';
