/** Group an image's pins by digest: each distinct digest is one provenance subject. */
import type { Pin } from '../model/index.js';
import type { ImageSubject } from '../provenance/types.js';
import type { StaleImageInput } from './types.js';

export interface Subject extends ImageSubject {
  input: StaleImageInput;
}

export function subjectsOf(images: StaleImageInput[]): Subject[] {
  const out: Subject[] = [];
  for (const input of images) {
    const byDigest = new Map<string, Pin[]>();
    for (const pin of input.pins) {
      const key = pin.ref.digest ?? '';
      byDigest.set(key, [...(byDigest.get(key) ?? []), pin]);
    }
    if (byDigest.size === 0) byDigest.set('', []);
    for (const [digest, pins] of byDigest) {
      const tags = [...new Set(pins.flatMap((p) => (p.ref.tag !== undefined ? [p.ref.tag] : [])))];
      out.push({ input, repository: input.repository, digest: digest || undefined, tags, pins });
    }
  }
  return out;
}
