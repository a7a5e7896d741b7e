/**
 * What pinwatch assumes when pinwatch.yaml says nothing: the default include and
 * exclude sets and the default values of every key. Documented in docs/config.md.
 */
import type { Config } from './types.js';

/** Ref-bearing files by default: Helm values, images/*.tag, kustomizations, Dockerfiles. */
export const DEFAULT_INCLUDE: readonly string[] = [
  '**/values.yaml',
  '**/values.yml',
  '**/values-*.yaml',
  '**/values-*.yml',
  '**/values.*.yaml',
  '**/images/*.tag',
  '**/kustomization.yaml',
  '**/kustomization.yml',
  '**/Dockerfile',
  '**/Dockerfile.*',
  '**/Dockerfile-*',
  '**/*.Dockerfile',
  '**/Containerfile',
];

/** Directory names never walked (pruned wherever they appear, counted per directory). */
export const DEFAULT_PRUNED_DIRS: readonly string[] = ['.git', 'node_modules'];

/** Vendored trees never read for build recipes or producers (Makefiles, workflows, bake, compose, goreleaser, Skaffold, Cloud Build); the scan counts them. */
export const RECIPE_PRUNED_DIRS: readonly string[] = ['vendor', 'third_party', 'node_modules'];

/**
 * Helm chart `templates/` (beside a Chart.yaml) hold Go templates, not YAML:
 * left out by default. Declared extraFiles are read even there.
 */
export const CHART_TEMPLATES_DIR = 'templates';
/** A chart's vendored dependency charts: `<chart>/charts/` beside its Chart.yaml. */
export const CHART_DEPENDENCIES_DIR = 'charts';
export const CHART_FILE = 'Chart.yaml';

export const DEFAULT_BUILD_ENTRY = 'Makefile:build';

/** The config file read at the repository root when --config is not given. */
export const CONFIG_FILE_NAME = 'pinwatch.yaml';
/** Every name the repository's config may have (at its root, or in .github/), the preferred first; two at once is an error. */
export const CONFIG_FILE_NAMES: readonly string[] = [CONFIG_FILE_NAME, 'pinwatch.yml', '.pinwatch.yaml', '.pinwatch.yml', '.github/pinwatch.yaml', '.github/pinwatch.yml'];

/** A config with every default filled in; `origin` says nothing was read. */
export function defaultConfig(): Config {
  return {
    firstParty: [],
    include: [...DEFAULT_INCLUDE],
    exclude: [],
    extraFiles: [],
    skipVendoredCharts: true,
    images: {},
    producers: [],
    buildEntry: DEFAULT_BUILD_ENTRY,
    buildEnv: {},
    provenance: { methods: ['digest-history', 'tag-commit', 'tag-history', 'git-tag'], buildCommit: 'parent' },
    stale: {},
    rules: {},
    insecureRegistries: [],
    aliases: {},
    links: {},
    origin: { assumed: [] },
  };
}
