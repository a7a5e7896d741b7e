/**
 * The new text for each stored field of a pin. Only tag and digest change; the
 * repository is kept as written (familiar or full, with or without registry).
 * A pin keeps its form: a digest-only pin stays digest-only, a tag-only pin gets
 * the new tag. A lockstep pin of another repository gets the whole new ref.
 */
import type { Pin } from '../model/index.js';
import type { SpanEdit } from '../edit/index.js';
import type { RepinTarget } from './types.js';

export interface PinRewrite {
  edits: SpanEdit[];
  from: string;
  to: string;
}

/** Split a stored ref text into name, tag and digest parts as written. */
export function splitRefText(text: string): { name: string; tag?: string; digest?: string } {
  const at = text.indexOf('@');
  const head = at === -1 ? text : text.slice(0, at);
  const digest = at === -1 ? undefined : text.slice(at + 1);
  const colon = head.lastIndexOf(':');
  const slash = head.lastIndexOf('/');
  if (colon > slash) return { name: head.slice(0, colon), tag: head.slice(colon + 1), digest };
  return { name: head, digest };
}

function joinRef(name: string, tag: string | undefined, digest: string | undefined): string {
  return `${name}${tag !== undefined ? `:${tag}` : ''}${digest !== undefined ? `@${digest}` : ''}`;
}

/**
 * Edits that move `pin` to `target`; throws a message (string) when the pin
 * stores a tag and the target has none.
 */
export function rewritePin(text: string, pin: Pin, target: RepinTarget, wholeRef?: string): PinRewrite | string {
  const edits: SpanEdit[] = [];
  const parts: string[] = [];
  const after: string[] = [];
  for (const span of pin.spans) {
    const old = text.slice(span.start, span.end);
    parts.push(old);
    let next = old;
    if (span.field === 'ref') {
      if (wholeRef !== undefined) next = wholeRef;
      else {
        const p = splitRefText(old);
        if (p.tag !== undefined && target.tag === undefined) return `it stores tag "${p.tag}" and the target names no tag; pass --to REF:TAG@DIGEST or --to-tag TAG`;
        next = joinRef(p.name, p.tag !== undefined ? target.tag : undefined, p.digest !== undefined ? target.digest : undefined);
      }
    } else if (span.field === 'tag') {
      if (target.tag === undefined) return `it stores tag "${old}" and the target names no tag; pass --to REF:TAG@DIGEST or --to-tag TAG`;
      next = target.tag;
    } else if (span.field === 'digest') {
      // `digest=sha256:…` (OCI artifact pairs) keeps its prefix.
      next = old.replace(/[A-Za-z][A-Za-z0-9]*:[0-9a-fA-F]{32,}$/, target.digest);
      if (next === old && !old.endsWith(target.digest)) next = target.digest;
    } else if (wholeRef !== undefined) {
      return `it is a ${pin.shape} pin of ${pin.ref.name}; a lockstep rewrite to another repository needs a single-string pin`;
    }
    after.push(next);
    if (next !== old) edits.push({ start: span.start, end: span.end, text: next });
  }
  return { edits, from: pin.raw || parts.join(' '), to: describeAfter(pin, after) };
}

function describeAfter(pin: Pin, after: string[]): string {
  if (pin.spans.length === 1) return after[0] ?? '';
  const f = (field: string) => {
    const i = pin.spans.findIndex((s) => s.field === field);
    return i === -1 ? undefined : after[i];
  };
  const name = pin.ref.name;
  return joinRef(name, f('tag'), f('digest')?.replace(/^digest=/, ''));
}
