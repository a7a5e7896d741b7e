/** Configuration: loading pinwatch.yaml, its defaults and its spec. */
export { loadConfig, parseConfigText, CONFIG_FILE_NAME } from './load.js';
export type { LoadConfigOptions } from './load.js';
export { defaultConfig, DEFAULT_INCLUDE, DEFAULT_PRUNED_DIRS, DEFAULT_BUILD_ENTRY } from './defaults.js';
export { firstPartyPrefixProblem } from './first-party.js';
export { CONFIG_SPEC, specKeyPaths } from './spec.js';
export { configJsonSchema } from './json-schema.js';
export type * from './types.js';
export { canonicalRepository, aliasOf, firstPartyPrefixes, aliasesProblem } from './aliases.js';
