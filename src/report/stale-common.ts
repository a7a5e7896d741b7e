/** Small text pieces shared by the stale text and markdown formatters. */
import type { ProvenanceStep } from '../provenance/types.js';
import type { StaleImage, UnshippedCommit } from '../stale/index.js';
import { plainField } from './sanitize.js';

export const short = (sha: string | undefined) => (sha ? sha.slice(0, 10) : '-');

export function builtFromText(img: StaleImage): string {
  if (!img.builtFrom) return '-';
  return `${short(img.builtFrom.commit)} (${img.builtFrom.method})`;
}

export function unshippedCount(img: StaleImage): string {
  if (img.status !== 'stale') return img.status === 'current' ? '0' : '-';
  const fixes = img.unshipped.filter((u) => u.fix !== undefined).length;
  return fixes > 0 ? `${img.unshipped.length} (${fixes} fix)` : `${img.unshipped.length}`;
}

export function ageText(img: StaleImage): string {
  return img.oldestUnshipped ? `${img.oldestUnshipped.ageDays}d` : '-';
}

/** The type column: the type, or `fix` for a commit a trailer or stale.fixPattern makes a fix. */
export function typeText(u: UnshippedCommit): string {
  return u.type ?? (u.fix ? 'fix' : '-');
}

export function commitLine(u: UnshippedCommit): string {
  return `${short(u.commit)} ${u.date.slice(0, 10)} ${typeText(u).padEnd(8)} ${u.pr ? `#${u.pr}`.padEnd(7) : '-'.padEnd(7)} ${plainField(u.subject)}`;
}

export function summaryCounts(images: StaleImage[]): string {
  const n = (s: string) => images.filter((i) => i.status === s).length;
  return `${images.length} image(s): ${n('stale')} stale, ${n('current')} current, ${n('unknown')} unknown`;
}

/**
 * Row labels: the image name; when several repositories share it (`ghcr.io/a/app`,
 * `ghcr.io/b/app`), the shortest tail of the repository path that tells them apart
 * (`a/app`, `b/app`); then the tag or a digest prefix when one repository has several digests.
 */
export function imageLabels(images: StaleImage[]): string[] {
  const count = (f: (i: StaleImage) => string) => {
    const m = new Map<string, number>();
    for (const i of images) m.set(f(i), (m.get(f(i)) ?? 0) + 1);
    return m;
  };
  const repoName = repositoryNames(images);
  const name = (i: StaleImage) => repoName.get(i.repository) ?? i.image;
  const byName = count(name);
  const withTag = (i: StaleImage) => `${name(i)}:${i.tags[0] ?? ''}`;
  const byTag = count(withTag);
  return images.map((i) => {
    if (byName.get(name(i)) === 1) return name(i);
    if (i.tags.length > 0 && byTag.get(withTag(i)) === 1) return withTag(i);
    return `${name(i)}@${(i.digest ?? 'none').replace(/^sha\d+:/, '').slice(0, 12)}`;
  });
}

/** Repository → a name unique among the images' repositories (the image name when it already is). */
function repositoryNames(images: StaleImage[]): Map<string, string> {
  const reposByName = new Map<string, Set<string>>();
  for (const i of images) reposByName.set(i.image, (reposByName.get(i.image) ?? new Set()).add(i.repository));
  const out = new Map<string, string>();
  for (const [image, repos] of reposByName) {
    if (repos.size === 1) continue;
    for (const repo of repos) out.set(repo, distinctTail(repo, [...repos].filter((r) => r !== repo), image));
  }
  return out;
}

function distinctTail(repo: string, others: string[], fallback: string): string {
  const parts = repo.split('/');
  for (let n = 2; n <= parts.length; n++) {
    const tail = parts.slice(-n).join('/');
    if (!others.some((o) => o === tail || o.endsWith(`/${tail}`))) return tail;
  }
  return repo || fallback;
}

/**
 * The stronger methods tried before the one that answered, each with why it did
 * not answer (empty when the first method answered, or none did).
 */
export function failedBeforeAnswer(img: StaleImage): ProvenanceStep[] {
  const at = img.provenance.findIndex((s) => s.answered);
  return at > 0 ? img.provenance.slice(0, at) : [];
}
