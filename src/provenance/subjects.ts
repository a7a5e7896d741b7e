/**
 * Group an image's pins into provenance subjects: each distinct digest is one,
 * and so is each distinct tag among the pins without a digest (`v20260810-…-master`
 * and `…-1.36` are two builds; one tag-only subject per repository would mix them).
 */
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
  /** The image's build inputs, when known: its Dockerfile is the subjects' anchor (ImageSubject). */
  inputs?: { inputs: readonly { path: string; why: string; kind?: string }[]; unknownReason?: string };
}

/** The Dockerfile the image's inputs were derived from: a file every build of it reads. */
function anchorOf(source: SubjectSource): string | undefined {
  if (!source.inputs || source.inputs.unknownReason !== undefined) return undefined;
  return source.inputs.inputs.find((i) => i.why === 'Dockerfile' && i.kind === 'file')?.path;
}

export function subjectsOf<I extends SubjectSource>(images: readonly I[]): Subject<I>[] {
  const out: Subject<I>[] = [];
  for (const input of images) {
    const anchor = anchorOf(input);
    const byDigest = new Map<string, Pin[]>();
    for (const pin of input.pins) {
      const key = pin.ref.digest ?? (pin.ref.tag !== undefined ? `tag:${pin.ref.tag}` : '');
      pushTo(byDigest, key, pin);
    }
    if (byDigest.size === 0) byDigest.set('', []);
    for (const [key, pins] of byDigest) {
      const digest = key.startsWith('tag:') ? '' : key;
      const tags = [...new Set(pins.flatMap((p) => (p.ref.tag !== undefined ? [p.ref.tag] : [])))];
      const stamped = (input.stamped ?? []).filter((s) => pins.some((p) => p.file === s.file && p.line === s.line));
      out.push({ input, repository: input.repository, digest: digest || undefined, tags, pins, ...(stamped.length > 0 ? { stamped } : {}), ...(anchor !== undefined ? { anchor } : {}) });
    }
  }
  return out;
}
