/** Group an image's pins by digest: each distinct digest is one provenance subject. */
import type { Pin } from '../model/index.js';
import type { ImageSubject } from './types.js';
import { pushTo } from '../util/list.js';

/** A subject, with the caller's image it came from (stale keeps its build inputs there). */
export interface Subject<I extends SubjectSource = SubjectSource> extends ImageSubject {
  input: I;
}

/** What subjects are made from: a repository and its pins (any digests). */
export interface SubjectSource {
  repository: string;
  pins: Pin[];
  /** Pins a recipe or producer stamps (see ImageSubject). */
  stamped?: { file: string; line: number; by: string }[];
}

export function subjectsOf<I extends SubjectSource>(images: I[]): Subject<I>[] {
  const out: Subject<I>[] = [];
  for (const input of images) {
    const byDigest = new Map<string, Pin[]>();
    for (const pin of input.pins) {
      const key = pin.ref.digest ?? '';
      pushTo(byDigest, key, pin);
    }
    if (byDigest.size === 0) byDigest.set('', []);
    for (const [digest, pins] of byDigest) {
      const tags = [...new Set(pins.flatMap((p) => (p.ref.tag !== undefined ? [p.ref.tag] : [])))];
      const stamped = (input.stamped ?? []).filter((s) => pins.some((p) => p.file === s.file && p.line === s.line));
      out.push({ input, repository: input.repository, digest: digest || undefined, tags, pins, ...(stamped.length > 0 ? { stamped } : {}) });
    }
  }
  return out;
}
