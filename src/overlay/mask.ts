/**
 * Masking: replace the stored text of every pin (each span the collector found)
 * by a placeholder named after the pin's key and field, so two copies of a file
 * can be compared on everything that is not a ref. Also checks that the pins of
 * the two copies correspond (same count, order, key path, shape and fields).
 */
import type { Pin } from '../model/index.js';
import { pushTo } from '../util/list.js';

/** Marks a masked span inside a line; neither character occurs in YAML keys we compare. */
export const MASK_OPEN = '\u27e6';
export const MASK_CLOSE = '\u27e7';

interface Range {
  start: number;
  end: number;
  labels: Set<string>;
}

/** How a pin is named in reasons and masks: its key path, else its shape. */
export function pinName(pin: Pin): string {
  const doc = pin.document ? `doc ${pin.document}: ` : '';
  return `${doc}${pin.keyPath ?? `${pin.shape} ref`}`;
}

/** The identity a pin must keep between the two files. */
function pinKey(pin: Pin): string {
  return `${pin.document ?? 0}|${pin.shape}|${pin.keyPath ?? ''}`;
}

function firstOffset(pin: Pin): number {
  return Math.min(...pin.spans.map((s) => s.start), Number.MAX_SAFE_INTEGER);
}

export function sortPins(pins: readonly Pin[]): Pin[] {
  return [...pins].sort((a, b) => firstOffset(a) - firstOffset(b) || a.line - b.line);
}

/** Merge every pin span (overlapping or shared ones too) into ordered, labelled ranges. */
function mergedRanges(pins: readonly Pin[]): Range[] {
  const spans = pins.flatMap((p) => p.spans.map((s) => ({ start: s.start, end: s.end, label: `${pinName(p)}.${s.field}` })));
  spans.sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Range[] = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && s.start < last.end) {
      last.end = Math.max(last.end, s.end);
      last.labels.add(s.label);
    } else if (last && s.start === last.end && s.start === s.end) {
      last.labels.add(s.label);
    } else {
      out.push({ start: s.start, end: s.end, labels: new Set([s.label]) });
    }
  }
  return out;
}

/**
 * The text with every pin span replaced by `⟦key.field⟧`. Newlines inside a span
 * are kept after the placeholder so line numbers still match the file.
 */
export function maskText(text: string, pins: readonly Pin[]): string {
  let out = '';
  let at = 0;
  for (const r of mergedRanges(pins)) {
    if (r.start < at || r.end > text.length) continue; // defensive: a span outside the text
    const newlines = text.slice(r.start, r.end).split('\n').length - 1;
    out += text.slice(at, r.start) + MASK_OPEN + [...r.labels].sort().join(',') + MASK_CLOSE + '\n'.repeat(newlines);
    at = r.end;
  }
  return out + text.slice(at);
}

/** 1-based lines covered by any span of any pin. */
export function refLines(text: string, pins: readonly Pin[]): Set<number> {
  const starts = lineStarts(text);
  const lines = new Set<number>();
  for (const p of pins) {
    for (const s of p.spans) {
      const first = lineOf(starts, s.start);
      const last = lineOf(starts, Math.max(s.start, s.end - 1));
      for (let l = first; l <= last; l++) lines.add(l);
    }
    if (p.spans.length === 0 && p.line > 0) lines.add(p.line);
  }
  return lines;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/**
 * Why the pins of the two copies do not correspond, one sentence each; empty
 * when they do. A ref moved to another key, an added or removed pin, a changed
 * order or a changed set of stored fields is drift, not a ref difference.
 */
export function pinCorrespondence(committed: readonly Pin[], artifact: readonly Pin[], sameImage?: (committed: string, artifact: string) => boolean): string[] {
  const a = sortPins(committed);
  const b = sortPins(artifact);
  const reasons = countDifferences(a, b);
  if (reasons.length > 0) return reasons;
  const keysA = a.map(pinKey);
  const keysB = b.map(pinKey);
  if (keysA.join('\n') !== keysB.join('\n')) {
    return [`the pins appear in a different order: checkout ${a.map(pinName).join(', ')}; artifact ${b.map(pinName).join(', ')}`];
  }
  a.forEach((pa, i) => {
    const pb = b[i] as Pin;
    const fa = fieldList(pa);
    const fb = fieldList(pb);
    if (fa !== fb) reasons.push(`${pinName(pa)} (line ${pa.line}) stores ${fa} in the checkout but ${fb} in the artifact (line ${pb.line})`);
    else if (sameImage && pa.ref.name !== pb.ref.name && pa.ref.name !== '' && pb.ref.name !== '' && !sameImage(pa.ref.name, pb.ref.name)) {
      reasons.push(`${pinName(pa)} (line ${pa.line}) is ${pa.ref.name} in the checkout but ${pb.ref.name} in the artifact (line ${pb.line}), which no aliases entry makes the same image`);
    }
  });
  return reasons;
}

function fieldList(pin: Pin): string {
  return [...new Set(pin.spans.map((s) => s.field))].sort().join('+') || 'no fields';
}

function countDifferences(a: Pin[], b: Pin[]): string[] {
  const byKey = (pins: Pin[]) => {
    const m = new Map<string, Pin[]>();
    for (const p of pins) pushTo(m, pinKey(p), p);
    return m;
  };
  const ma = byKey(a);
  const mb = byKey(b);
  const reasons: string[] = [];
  const total = a.length === b.length ? '' : ` (${a.length} pins in the checkout, ${b.length} in the artifact)`;
  for (const key of new Set([...ma.keys(), ...mb.keys()])) {
    const pa = ma.get(key) ?? [];
    const pb = mb.get(key) ?? [];
    if (pa.length > pb.length) {
      for (const p of pa.slice(pb.length)) reasons.push(`${pinName(p)} (line ${p.line}, ${p.raw}) has no counterpart in the artifact${total}`);
    } else if (pb.length > pa.length) {
      for (const p of pb.slice(pa.length)) reasons.push(`${pinName(p)} (artifact line ${p.line}, ${p.raw}) has no counterpart in the checkout${total}`);
    }
  }
  return reasons;
}
