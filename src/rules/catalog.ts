/**
 * The catalog of lint rules: id, default level, title, why, fix. Docs pages
 * (`docs/rules/<id>.md`), SARIF rule metadata and `pinwatch lint` levels all
 * read this one list.
 */
import type { RuleMeta } from './types.js';

export const LINT_RULES: readonly RuleMeta[] = [
  {
    id: 'first-party-missing-digest',
    defaultLevel: 'error',
    title: 'A first-party pin has no digest',
    description:
      'A first-party image is pinned by tag alone. A tag can be moved, so the tree does not say which bytes run, and tools that select refs by `@sha256:` (promotion, mirroring) step over it.',
    hint: 'Have the producer stamp `tag@sha256:<digest>` (see `pinwatch explain`); do not paste a digest by hand.',
  },
  {
    id: 'floating-tag',
    defaultLevel: 'error',
    title: 'A first-party pin uses the floating tag `latest`',
    description:
      'Without a digest, `latest` names no version at all: what a cluster runs depends on when it pulled. With a digest the bytes are fixed, but the tag tells readers and tag-based tooling nothing true about the version.',
    hint: 'Stamp a version tag with its digest (`v1.2.3@sha256:…`) from the producer.',
  },
  {
    id: 'repository-multiple-digests',
    defaultLevel: 'error',
    title: 'One first-party repository is pinned at two or more digests',
    description:
      'Pins of one repository disagree on the digest, so two builds of one image run side by side, and a promotion that retags by digest puts two images onto one stable tag.',
    hint: 'Stamp every pin of the repository from one producer run so they carry the same digest.',
  },
  {
    id: 'no-producer',
    defaultLevel: 'error',
    title: 'No producer stamps a first-party pin',
    description:
      'No build recipe writes this key, so nothing refreshes it, not even release preparation: the pin freezes at whatever was pasted last.',
    hint: 'Add a `yq -i` write of this key to the recipe that builds the image, or declare the producer under `producers:` in pinwatch.yaml.',
  },
  {
    id: 'multiple-producers',
    defaultLevel: 'error',
    title: 'Two or more producers stamp the same key',
    description:
      'Two recipes write one key; whichever runs last wins, so the pin depends on build order and may name an image the other recipe did not build.',
    hint: 'Keep one producer for the key and remove the write from the others.',
  },
  {
    id: 'lockstep-mismatch',
    defaultLevel: 'error',
    title: 'Keys a producer stamps with one ref differ',
    description:
      'A recipe writes the same ref to several keys, so they must be equal; they differ, which means one of them was edited by hand or stamped by something else.',
    hint: 'Re-run the producer (or repin) so every key it stamps together carries the same ref.',
  },
  {
    id: 'producer-not-built',
    defaultLevel: 'error',
    title: 'A producer is not reachable from the build entry point',
    description:
      'The recipe that stamps these pins is never run by the build entry point (e.g. a package Makefile whose `image` target the root `build:` target does not call), so no build, CI matrix or release preparation refreshes them.',
    hint: 'Call the recipe from the build entry point (e.g. add `make -C <package> image` to the root `build:` target).',
  },
  {
    id: 'write-without-pin',
    defaultLevel: 'warning',
    title: 'A producer writes a place where pinwatch found no pin',
    description:
      'A recipe stamps a file that pinwatch does not scan, so the refs it writes there are never checked, promoted or mirrored ("scan wider than you rewrite"); or it writes a key that does not exist or holds no image reference.',
    hint: 'Add the written file to `include` or `extraFiles` in pinwatch.yaml, or fix the path the recipe writes.',
  },
  {
    id: 'unparsed-file',
    defaultLevel: 'warning',
    title: 'A ref-bearing file could only be scraped as text, or not read',
    description:
      'The file did not parse as the format its name promises, so its refs were found by a textual scrape (no key paths, shapes may be missed), or it could not be read at all. Files declared in `extraFiles` are scraped by design and are not reported.',
    hint: 'Fix the syntax error, or declare the file under `extraFiles` in pinwatch.yaml if it is meant to be scraped.',
  },
  {
    id: 'invalid-ref',
    defaultLevel: 'warning',
    title: 'A value where an image reference belongs does not parse or cannot be resolved',
    description:
      'A value stored where a ref belongs does not follow the distribution reference grammar (uppercase path, bad digest length, …), is incomplete (a split map with an empty repository), templated, conflicting (a digest in the tag and another in `digest`), or missing (an empty `.tag` file), so no tool can pull or track it.',
    hint: 'Write the ref as `registry/path:tag@sha256:<64 hex>`.',
  },
  {
    id: 'build-recipe-problem',
    defaultLevel: 'warning',
    title: 'A build recipe could not be understood',
    description:
      'A Makefile did not parse, or a recipe writes a file that does not exist. Producers behind it may be missing from the build model, so `no-producer` and `producer-not-built` may be incomplete.',
    hint: 'Fix the recipe; where only the release knows a value, set it under `buildEnv:`, or declare the image under `images:` (its writes under `producers:`) in pinwatch.yaml.',
  },
  {
    id: 'build-recipe-assumption',
    defaultLevel: 'note',
    title: 'pinwatch had to guess while reading a build recipe',
    description:
      'A Makefile condition depends on something only known at build time (`$(shell uname)`), or a written file name was guessed, so pinwatch took one branch or one name. Producers found under that guess may differ from what a real build does.',
    hint: 'Check the guess; if it is wrong, declare the producer under `producers:` in pinwatch.yaml.',
  },
  {
    id: 'third-party-missing-digest',
    defaultLevel: 'off',
    enabledLevel: 'note',
    title: 'A third-party pin has no digest',
    description:
      'A third-party image is pinned by tag only; upstream can move the tag. Off by default: enable it with `rules: {third-party-missing-digest: note}` when the team pins upstream images by digest too.',
    hint: 'Pin the upstream image as `tag@sha256:<digest>`.',
  },
  {
    id: 'suppression-without-reason',
    defaultLevel: 'error',
    title: 'A `pinwatch-ignore` comment gives no reason',
    description:
      'Every suppression must say why the finding is acceptable, so that the next reader can judge whether it still is. The suppression still applies; this finding replaces it.',
    hint: 'Write the reason after the rule id: `# pinwatch-ignore <rule> <why this is fine>`.',
  },
  {
    id: 'suppression-unknown-rule',
    defaultLevel: 'warning',
    title: 'A `pinwatch-ignore` comment names a rule that does not exist',
    description: 'The comment suppresses nothing, most likely because of a typo in the rule id.',
    hint: 'Use one of the rule ids listed in docs/lint.md.',
  },
  {
    id: 'unused-suppression',
    defaultLevel: 'note',
    title: 'A `pinwatch-ignore` comment suppresses nothing',
    description: 'The finding it was written for is gone (fixed, or moved away from the comment); the comment now only misleads.',
    hint: 'Delete the comment.',
  },
];

const BY_ID = new Map(LINT_RULES.map((r) => [r.id, r]));

/** The catalog entry for a rule id, if pinwatch lint knows it. */
export function lintRuleMeta(id: string): RuleMeta | undefined {
  return BY_ID.get(id);
}

/**
 * Rule pages ship in the package as docs/rules/<id>.md. pinwatch has no public
 * home page yet, so reports link to a published copy only when one is named
 * (`docsBase`, e.g. your fork's `https://…/docs/rules/`); otherwise they cite the path.
 */
export const RULE_DOCS_PATH = 'docs/rules/';

export function ruleHelpUri(id: string, base: string): string {
  return `${base}${id}.md`;
}
