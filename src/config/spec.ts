/**
 * The one description of `pinwatch.yaml`: every key, its type, its default and a
 * sentence for editors. The validator (validate.ts) walks it, and
 * schemas/pinwatch-config.schema.json is generated from it (json-schema.ts), so
 * the loader and the schema cannot disagree on which keys are valid.
 */
import { LINT_RULE_IDS, STALE_RULE_IDS } from '../model/rule-ids.js';
import { firstPartyPrefixProblem } from './first-party.js';
import { linkTemplateProblem } from './links.js';

export type FieldSpec =
  | {
      kind: 'string';
      description: string;
      pattern?: RegExp;
      patternHint?: string;
      glob?: boolean;
      /** Extra check: returns why the value is wrong, or undefined. */
      check?: (value: string) => string | undefined;
      /** The value names a repository file (or, given a function, the part it returns does): it must stay inside the repository. */
      repoPath?: true | ((value: string) => string);
    }
  | { kind: 'boolean'; description: string }
  | { kind: 'enum'; description: string; values: readonly string[] }
  | { kind: 'list'; description: string; item: FieldSpec }
  | {
      kind: 'object';
      description: string;
      fields: Record<string, FieldSpec>;
      required?: string[];
      /** A field whose value may stand alone for the whole object: `provenance: [a, b]` = `provenance: {methods: [a, b]}`. */
      shorthand?: string;
    }
  | {
      kind: 'map';
      description: string;
      keyPattern?: RegExp;
      keyHint?: string;
      /** Extra check of a key: returns why it is wrong, or undefined. */
      keyCheck?: (key: string) => string | undefined;
      /** When set, every key must be one of these ("did you mean" otherwise). */
      knownKeys?: () => readonly string[];
      /** What a key is, for messages: `rule id`. */
      keyNoun?: string;
      value: FieldSpec;
    };

/** A git tag form: holds `{tag}`. */
const gitTagForm = (description: string): FieldSpec => ({ kind: 'string', description, check: (v) => (v.includes('{tag}') ? undefined : `${JSON.stringify(v)} has no {tag}; expected a form like controller-{tag}`) });

/** Why `source` is not a regular expression, or undefined. */
function regexProblem(source: string): string | undefined {
  try {
    new RegExp(source);
    return undefined;
  } catch (e) {
    return `not a regular expression (${(e as Error).message})`;
  }
}

/** Why `source` cannot be a tagCommitPattern (a regex with a group named commit), or undefined. */
function tagCommitPatternProblem(source: string): string | undefined {
  const example = 'expected one like ^build-(?<commit>[0-9a-f]{7,40})$';
  const problem = regexProblem(source);
  if (problem) return `${problem}; ${example}`;
  return /\(\?<commit>/.test(source) ? undefined : `has no group named commit; ${example}`;
}

/** A glob: checked by util/glob.ts (strict brackets, bounded expansion), repo-relative, forward slashes. */
const glob = (description: string): FieldSpec => ({ kind: 'string', description, glob: true });
const globs = (description: string): FieldSpec => ({ kind: 'list', description, item: glob('a repo-relative glob') });

export const RULE_LEVELS = ['error', 'warning', 'note', 'off'] as const;
export const PROVENANCE_METHODS = ['registry', 'digest-history', 'tag-commit', 'tag-history', 'git-tag'] as const;
export const BUILD_COMMITS = ['parent', 'self'] as const;

const imageSpec: FieldSpec = {
  kind: 'object',
  description: 'What pinwatch should know about one first-party image; the key is a short name.',
  fields: {
    repository: { kind: 'string', description: 'Repository the image is pushed to, with its registry host: ghcr.io/acme/billing.' },
    dockerfile: { kind: 'string', description: 'Dockerfile path, repo-relative.', repoPath: true },
    context: { kind: 'string', description: 'Build context directory, repo-relative.', repoPath: true },
    target: { kind: 'string', description: 'Build target stage, when the Dockerfile has several.' },
    inputs: globs('Extra input globs whose change changes the image (replace the derivation when derive is false).'),
    ignore: globs('Globs inside the inputs that do not affect the image (docs, tests).'),
    derive: { kind: 'boolean', description: 'Also derive inputs from the Dockerfile and Go imports (default true).' },
    gitTag: gitTagForm('The git tag form of this image\'s releases, with {tag}: controller-{tag} (git-tag provenance; tried before provenance.gitTag).'),
  },
};

const producerSpec: FieldSpec = {
  kind: 'object',
  description: 'A build recipe that stamps pins, declared by hand (for repos that stamp with scripts).',
  required: ['name', 'writes'],
  fields: {
    name: { kind: 'string', description: 'Human name, e.g. packages/core/platform/Makefile:image.' },
    writes: {
      kind: 'list',
      description: 'Files and YAML key paths it stamps: values.yaml#.a.b.image, a plain file for .tag, or {file, image} to write only that image (file may be a glob).',
      item: {
        kind: 'object',
        description: 'file or file#.key.path, or {file, image}.',
        required: ['file'],
        shorthand: 'file',
        fields: {
          file: { kind: 'string', description: 'file or file#.key.path; a glob (manifests/*.yaml) matches files as globs.', repoPath: (v) => v.split('#')[0]! },
          image: {
            kind: 'string',
            description: 'Only pins of this repository (quay.io/argoproj/argocd) are written; third-party refs in the same file are not.',
          },
        },
      },
    },
    built: { kind: 'boolean', description: 'Whether the build entry point runs it (default true).' },
  },
};

/** Top-level keys of pinwatch.yaml. */
export const CONFIG_SPEC: Extract<FieldSpec, { kind: 'object' }> = {
  kind: 'object',
  description: 'pinwatch configuration (pinwatch.yaml at the repository root).',
  fields: {
    firstParty: {
      kind: 'list',
      description: 'Repository prefixes this repo builds, with the registry host: ghcr.io/acme/. A pin under one of them is first-party.',
      item: { kind: 'string', description: 'a repository prefix like ghcr.io/acme/', check: firstPartyPrefixProblem },
    },
    include: globs('Globs of ref-bearing files. Replaces the defaults (values files, images/*.tag, kustomization.yaml, Dockerfiles).'),
    exclude: globs('Globs left out, on top of the defaults (.git/, node_modules/, Helm chart templates/). A glob ending in / or /** prunes a directory.'),
    extraFiles: globs('Files scraped textually for refs (Helm-templated manifests no YAML parser accepts); read even inside excluded chart templates/.'),
    skipVendoredCharts: { kind: 'boolean', description: 'Leave out Helm vendored dependency charts (<chart>/charts/ beside a Chart.yaml). Default true.' },
    images: { kind: 'map', description: 'Per-image build knowledge, keyed by a short name.', value: imageSpec },
    producers: { kind: 'list', description: 'Producers declared by hand.', item: producerSpec },
    buildEntry: {
      kind: 'string',
      description: 'Build entry point: a Makefile target as file:target (default Makefile:build), another recipe file (.github/workflows/release.yaml, skaffold.yaml, cloudbuild.yaml, optionally file:name), or none.',
      pattern: /^(?:none|[^:\s]+(?::[^:\s]+)?)$/,
      patternHint: 'file:target like Makefile:build, a recipe file like skaffold.yaml, or none',
      repoPath: (v) => (v === 'none' ? '.' : v.split(':')[0]!),
    },
    buildEnv: {
      kind: 'map',
      description: 'Variables the build recipes are read with, for what only the release environment sets: KO_DOCKER_REPO, SKAFFOLD_DEFAULT_REPO, Cloud Build substitutions (PROJECT_ID, _REGION), GITHUB_REPOSITORY.',
      keyPattern: /^[A-Za-z_][A-Za-z0-9_]*$/,
      keyHint: 'an environment variable name like KO_DOCKER_REPO',
      keyNoun: 'variable',
      value: { kind: 'string', description: 'its value' },
    },
    provenance: {
      kind: 'object',
      description: 'How pinwatch finds the commit an image was built from. A plain list is short for {methods: [...]}.',
      shorthand: 'methods',
      fields: {
        methods: {
          kind: 'list',
          description: 'Methods to try, strongest first. Default [digest-history, tag-commit, tag-history, git-tag].',
          item: { kind: 'enum', description: 'a provenance method', values: PROVENANCE_METHODS },
        },
        buildCommit: {
          kind: 'enum',
          description: 'Which commit an image was built from, given the commit that introduced its digest: its first parent (default) or itself.',
          values: BUILD_COMMITS,
        },
        tagCommitPattern: {
          kind: 'string',
          description: 'A regular expression with a group named commit, for image tags that embed the build commit another way (tag-commit): ^build-(?<commit>[0-9a-f]{7,40})$. Tried before the default schemes.',
          check: tagCommitPatternProblem,
        },
        gitTag: gitTagForm('The git tag form of releases, with {tag} (and {image}, the last part of the repository): release-{tag}. Tried before the default search ({tag}, v{tag}, {image}-{tag}, {image}/{tag}).'),
      },
    },
    stale: {
      kind: 'object',
      description: 'How stale judges unshipped commits.',
      fields: {
        fixPattern: {
          kind: 'string',
          description: 'A regular expression: an unshipped commit whose message (subject and body) matches it counts as a fix for --fail-on-stale fix, besides a fix type and Fixes: trailers.',
          check: regexProblem,
        },
      },
    },
    rules: {
      kind: 'map',
      description: 'Rule id → level override (error, warning, note, off).',
      keyPattern: /^[a-z0-9][a-z0-9-]*$/,
      keyHint: 'a rule id like floating-tag',
      knownKeys: () => [...LINT_RULE_IDS, ...STALE_RULE_IDS],
      keyNoun: 'rule id',
      value: { kind: 'enum', description: 'rule level', values: RULE_LEVELS },
    },
    baseline: { kind: 'string', description: 'Baseline file for lint, repo-relative.', repoPath: true },
    aliases: {
      kind: 'map',
      description:
        'Other repository prefixes under which the same images (same digests) are published, each mapped to the canonical prefix: "ci.acme.test/platform/": "ghcr.io/acme/platform/". Used by running, recipe matching and pins.',
      keyCheck: firstPartyPrefixProblem,
      keyNoun: 'alias prefix',
      value: { kind: 'string', description: 'the canonical repository prefix, like ghcr.io/acme/', check: firstPartyPrefixProblem },
    },
    links: {
      kind: 'object',
      description: 'Links of the HTML report. Placeholders: {repo} (the repository URL), {commit}, {short}, {pr}, {path}, {line}. Default: from the git remote (GitHub, GitLab); none for other hosts.',
      fields: {
        repository: { kind: 'string', description: 'The repository web URL shown and used as {repo}: https://git.acme.test/platform. Default: derived from remote origin.', check: (v) => linkTemplateProblem('repository', v) },
        commit: { kind: 'string', description: 'Commit URL template: {repo}/commit/{commit}.', check: (v) => linkTemplateProblem('commit', v) },
        pr: { kind: 'string', description: 'Pull/merge request URL template: {repo}/pull/{pr}.', check: (v) => linkTemplateProblem('pr', v) },
        file: { kind: 'string', description: 'File URL template at HEAD: {repo}/blob/{commit}/{path}#L{line} (a fragment holding {line} is dropped when there is no line).', check: (v) => linkTemplateProblem('file', v) },
      },
    },
    insecureRegistries: {
      kind: 'list',
      description: 'Registry hosts (host[:port]) where plain HTTP is allowed besides loopback.',
      item: { kind: 'string', description: 'host[:port]', pattern: /^[A-Za-z0-9.-]+(:[0-9]+)?$/, patternHint: 'host[:port], like reg.acme.test:5000' },
    },
  },
};

/** Every key path in the spec (`provenance.methods`, `images.*.inputs`), for the schema agreement test. */
export function specKeyPaths(spec: FieldSpec = CONFIG_SPEC, prefix = ''): string[] {
  switch (spec.kind) {
    case 'object':
      return Object.entries(spec.fields).flatMap(([k, f]) => [prefix + k, ...specKeyPaths(f, `${prefix}${k}.`)]);
    case 'map':
      return specKeyPaths(spec.value, `${prefix}*.`);
    case 'list':
      return specKeyPaths(spec.item, `${prefix}[].`);
    default:
      return [];
  }
}
