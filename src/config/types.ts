/**
 * The shape of `pinwatch.yaml` after loading and defaulting. The loader
 * (src/config/load.ts) validates the file and fills these; every command reads
 * only this type. Keep schemas/pinwatch-config.schema.json in step with it.
 */

export type RuleLevel = 'error' | 'warning' | 'note' | 'off';

export interface ImageConfig {
  /** Repository the image is pushed to (`ghcr.io/acme/billing`); the map key is a short name. */
  repository?: string;
  /** Dockerfile path, repo-relative. */
  dockerfile?: string;
  /** Build context, repo-relative. */
  context?: string;
  /** Build target stage, when the Dockerfile has several. */
  target?: string;
  /** Extra input globs (repo-relative) whose change changes the image. Replaces derivation when `derive: false`. */
  inputs?: string[];
  /** Globs inside the inputs that do not affect the image (docs, tests). */
  ignore?: string[];
  /** Derive inputs from the Dockerfile and Go imports as well (default true). */
  derive?: boolean;
  /** The git tag form of this image's releases, with `{tag}`: `controller-{tag}` (git-tag provenance). */
  gitTag?: string;
}

/** One declared write: `file` (a path or a glob, optionally `#.key.path`) and the image it writes there. */
export interface ProducerWriteConfig {
  file: string;
  /** Only pins of this repository (`quay.io/argoproj/argocd`) in the file(s) are written. */
  image?: string;
}

export interface ProducerConfig {
  /** Human name, e.g. `packages/core/platform/Makefile:image`. */
  name: string;
  /** Files and YAML key paths it stamps: `values.yaml#.a.b.image`, a plain file for `.tag`, or `{file, image}`. */
  writes: (string | ProducerWriteConfig)[];
  /** Whether the build entry point runs it (default true for declared producers). */
  built?: boolean;
  /** Set by the loader: the 1-based line of this producer in the config file (not a config key). */
  line?: number;
}

export type ProvenanceMethod = 'registry' | 'digest-history' | 'tag-commit' | 'tag-history' | 'git-tag';

export interface Config {
  /** Repository prefixes this repo builds, like `ghcr.io/acme/`. */
  firstParty: string[];
  /** Globs (repo-relative) of ref-bearing files. */
  include: string[];
  /** Globs left out, on top of the defaults. */
  exclude: string[];
  /** Files scraped textually (Helm-templated manifests no YAML parser accepts). */
  extraFiles: string[];
  /** Leave out Helm vendored dependency charts (`<chart>/charts/**` beside a Chart.yaml). Default true. */
  skipVendoredCharts: boolean;
  /** Per-image build knowledge, keyed by a short name. */
  images: Record<string, ImageConfig>;
  /** Producers declared by hand (for repos that stamp with scripts). */
  producers: ProducerConfig[];
  /** Build entry point: `Makefile:build` (file:target), another recipe file, or `none`. */
  buildEntry: string;
  /** Variables the build recipes are read with (KO_DOCKER_REPO, SKAFFOLD_DEFAULT_REPO, PROJECT_ID…). */
  buildEnv: Record<string, string>;
  provenance: {
    methods: ProvenanceMethod[];
    /** Which commit an introducing commit's image was built from: its first parent (default) or itself. */
    buildCommit: 'parent' | 'self';
    /** A regex with a `(?<commit>…)` group for tags that embed a commit another way (tag-commit). */
    tagCommitPattern?: string;
    /** The git tag form of releases, with `{tag}` (and `{image}`): `release-{tag}` (git-tag). */
    gitTag?: string;
  };
  stale: {
    /** A regex: an unshipped commit whose message matches it counts as a fix for `--fail-on-stale fix`. */
    fixPattern?: string;
  };
  /** Rule id → level override. */
  rules: Record<string, RuleLevel>;
  /** Baseline file for lint, repo-relative. */
  baseline?: string;
  /** Hosts where plain HTTP is allowed besides loopback. */
  insecureRegistries: string[];
  /** Other prefix → canonical prefix: where the same images are also published (src/config/aliases.ts). */
  aliases: Record<string, string>;
  /** Link templates of the HTML report (`links` in pinwatch.yaml; src/report/links.ts). */
  links: { repository?: string; commit?: string; pr?: string; file?: string };
  /** Where the config came from and what was assumed (printed when no file exists). */
  origin: { file?: string; assumed: string[] };
}
