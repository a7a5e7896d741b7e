export { collectYaml } from './collect.js';
export { parseYamlDocument, parseYamlValue, type YamlDocument, type YamlDocumentOptions } from './document.js';
