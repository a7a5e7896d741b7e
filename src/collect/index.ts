/** Collectors (barrel): one per file kind, text in, pins and problems out, and collectFile that dispatches by kind. */
export { COLLECTORS, collectFile } from './engine.js';
export type { CollectContext, CollectResult, Collector, FileKind } from './types.js';
export { collectDockerfile, unresolvedFromArgs } from './dockerfile/index.js';
export { collectTagFile } from './tagfile/index.js';
export { scrapeText } from './text/index.js';
export { collectYaml, IMAGE_VALUE_LEFT_OUT, parseYamlDocument, parseYamlDocuments, parseYamlValue, withMerges, type YamlDocument, type YamlDocumentOptions } from './yaml/index.js';
export { isValuesFile, readChartInfo, type ChartInfo } from './yaml/chart.js';
export { parseSkaffold, type SkaffoldArtifact, type SkaffoldFile } from './skaffold/index.js';
