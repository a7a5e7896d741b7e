/**
 * Tag-commit provenance: an image tag that embeds the commit it was built from
 * (`v20260820-69b56db7`, `sha-1a2b3c4`, `main-1a2b3c4d`, `1.2.3-g1a2b3c4`, a full
 * sha). The abbreviation is resolved against the repository in one batch
 * (`resolveAbbreviations`): only a prefix naming exactly one commit answers;
 * an ambiguous or absent one is said. `provenance.tagCommitPattern` (a regex
 * with a `(?<commit>…)` group) is tried before the default schemes.
 */
import type { Abbreviation } from '../git/objects.js';
import { listSome } from '../util/list.js';
import type { ImageSubject, ProvenanceSource, ProvenanceStep } from './types.js';

const method = 'tag-commit' as const;

/**
 * The default schemes, one regex: a whole-tag sha (7–64 hex); the Kubernetes
 * staging scheme `vYYYYMMDD-<sha>` with an optional variant (`-master`, `-1.36`);
 * `git describe`'s `-g<sha>` (optionally `-dirty`); or a last `-`/`_`/`.`-separated
 * part of 7–40 hex (`sha-1a2b3c4`, `main-1a2b3c4d`).
 */
export const DEFAULT_TAG_COMMIT_PATTERN =
  /^(?:(?<whole>[0-9a-f]{7,64})|v?\d{8}-(?<staging>[0-9a-f]{7,40})(?:-[A-Za-z0-9._-]+)?|.*-g(?<describe>[0-9a-f]{7,40})(?:-dirty)?|.*[-_.](?<suffix>[0-9a-f]{7,40}))$/;

/** The commit abbreviation a tag embeds (lower-case hex, at least 7 characters), or undefined. */
export function embeddedCommit(tag: string, custom?: RegExp): string | undefined {
  const own = custom?.exec(tag)?.groups?.commit;
  if (own !== undefined && /^[0-9a-fA-F]{4,64}$/.test(own)) return own.toLowerCase();
  const g = DEFAULT_TAG_COMMIT_PATTERN.exec(tag)?.groups;
  return g?.whole ?? g?.staging ?? g?.describe ?? g?.suffix;
}

/** Every abbreviation the subjects' tags embed, for one batched lookup. */
export function embeddedCommits(subjects: ImageSubject[], custom?: RegExp): string[] {
  return [...new Set(subjects.flatMap((s) => s.tags.flatMap((t) => embeddedCommit(t, custom) ?? [])))];
}

export function tagCommitSource(resolved: Map<string, Abbreviation>, custom?: RegExp): ProvenanceSource {
  return { method, resolve: async (image) => resolveFromTagCommit(image, resolved, custom) };
}

export function resolveFromTagCommit(image: ImageSubject, resolved: Map<string, Abbreviation>, custom?: RegExp): ProvenanceStep {
  if (image.tags.length === 0) return { method, answered: false, reason: 'no pin of this image carries a tag' };
  const refusals: string[] = [];
  const answers: { tag: string; commit: string }[] = [];
  for (const tag of image.tags) {
    const abbrev = embeddedCommit(tag, custom);
    if (!abbrev) continue;
    const found = resolved.get(abbrev);
    if (found && 'commit' in found) answers.push({ tag, commit: found.commit });
    else if (found && 'ambiguous' in found) refusals.push(`tag ${tag} embeds ${abbrev}, which is ambiguous here (several objects share the prefix)`);
    else refusals.push(`tag ${tag} embeds ${abbrev}, which names no commit of this repository (built elsewhere, or not fetched)`);
  }
  const commits = [...new Set(answers.map((a) => a.commit))];
  if (commits.length === 1) {
    const a = answers[0]!;
    return { method, answered: true, commit: a.commit, reason: `tag ${a.tag} embeds commit ${a.commit.slice(0, 10)}; a tag names the commit its build says, but can be rebuilt (pin a digest to be sure)`, evidence: { tag: a.tag, embedded: embeddedCommit(a.tag, custom) } };
  }
  if (commits.length > 1) {
    return { method, answered: false, reason: `the pins' tags embed ${commits.length} different commits (${listSome(answers.map((a) => `${a.tag} → ${a.commit.slice(0, 10)}`))}): pin one image` };
  }
  if (refusals.length > 0) return { method, answered: false, reason: refusals.join('; ') };
  const schemes = 'vYYYYMMDD-<sha>[-variant], <name>-<sha>, …-g<sha>, a bare sha';
  const hint = custom ? `neither provenance.tagCommitPattern nor a default scheme (${schemes})` : `no default scheme (${schemes}); set provenance.tagCommitPattern for another`;
  return { method, answered: false, reason: `tag(s) ${listSome(image.tags)} embed no commit: they match ${hint}` };
}
