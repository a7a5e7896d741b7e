export { collectYaml } from './collect.js';
export { parseYamlDocument, parseYamlDocuments, parseYamlValue, type YamlDocument, type YamlDocumentOptions } from './document.js';
export { withMerges } from './merge-keys.js';
