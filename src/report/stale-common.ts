/** Small text pieces shared by the stale text and markdown formatters. */
import type { StaleImage, UnshippedCommit } from '../stale/types.js';

export const short = (sha: string | undefined) => (sha ? sha.slice(0, 10) : '-');

export function builtFromText(img: StaleImage): string {
  if (!img.builtFrom) return '-';
  return `${short(img.builtFrom.commit)} (${img.builtFrom.method})`;
}

export function unshippedCount(img: StaleImage): string {
  if (img.status !== 'stale') return img.status === 'current' ? '0' : '-';
  const fixes = img.unshipped.filter((u) => u.type === 'fix').length;
  return fixes > 0 ? `${img.unshipped.length} (${fixes} fix)` : `${img.unshipped.length}`;
}

export function ageText(img: StaleImage): string {
  return img.oldestUnshipped ? `${img.oldestUnshipped.ageDays}d` : '-';
}

export function commitLine(u: UnshippedCommit): string {
  return `${short(u.commit)} ${u.date.slice(0, 10)} ${(u.type ?? '-').padEnd(8)} ${u.pr ? `#${u.pr}`.padEnd(7) : '-'.padEnd(7)} ${u.subject}`;
}

export function summaryCounts(images: StaleImage[]): string {
  const n = (s: string) => images.filter((i) => i.status === s).length;
  return `${images.length} image(s): ${n('stale')} stale, ${n('current')} current, ${n('unknown')} unknown`;
}

/** Row labels: the image name, made unique with the tag or a digest prefix when one image has several digests. */
export function imageLabels(images: StaleImage[]): string[] {
  const count = (f: (i: StaleImage) => string) => {
    const m = new Map<string, number>();
    for (const i of images) m.set(f(i), (m.get(f(i)) ?? 0) + 1);
    return m;
  };
  const byName = count((i) => i.image);
  const withTag = (i: StaleImage) => `${i.image}:${i.tags[0] ?? ''}`;
  const byTag = count(withTag);
  return images.map((i) => {
    if (byName.get(i.image) === 1) return i.image;
    if (i.tags.length > 0 && byTag.get(withTag(i)) === 1) return withTag(i);
    return `${i.image}@${(i.digest ?? 'none').replace(/^sha\d+:/, '').slice(0, 12)}`;
  });
}
