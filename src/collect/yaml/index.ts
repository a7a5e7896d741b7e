export { collectYaml } from './collect.js';
export { IMAGE_VALUE_LEFT_OUT } from './walk.js';
export { parseYamlDocument, parseYamlDocuments, parseYamlValue, type YamlDocument, type YamlDocumentOptions } from './document.js';
export { withMerges } from './merge-keys.js';
