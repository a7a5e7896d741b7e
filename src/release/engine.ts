/**
 * The pure core of the release operations: which repository a prefix maps to,
 * the span edits that move a pin to another prefix (every shape, split maps
 * divided at any boundary) or to another tag, the semver rule for moving a
 * mutable tag, and how two copies of a file's pins differ. No I/O.
 */
import type { SpanEdit } from '../edit/index.js';
import type { Pin } from '../model/index.js';
import { rewritePin, splitRefText } from '../repin/rewrite.js';
import type { CompareRef, CompareStatus } from './types.js';

/** A prefix as compared with repositories: no trailing slash. */
export function normalisePrefix(prefix: string): string {
  return prefix.trim().replace(/\/+$/, '');
}

/** True when `name` is `prefix` or sits below it at a `/` boundary. */
export function isUnder(name: string, prefix: string): boolean {
  return name === prefix || name.startsWith(`${prefix}/`);
}

/** `name` with `from` replaced by `to` (name must be under `from`). */
export function mapPrefix(name: string, from: string, to: string): string {
  return `${to}${name.slice(from.length)}`;
}

export interface PinEdit {
  edits: SpanEdit[];
  from: string;
  to: string;
}

const segments = (s: string) => s.split('/').length;

/**
 * Edits that move a pin from prefix `from` to prefix `to`, keeping tag and
 * digest. Single-string pins (`ref` span) get their name part replaced. Split
 * pins (`registry` spans then `repository`) are divided again where they were:
 * a boundary after the prefix keeps its distance from the end of the prefix; a
 * boundary inside the prefix after k segments stays after k segments of `to`
 * (at most all of them), so a host-only `registry:` stays host-only and a
 * `host/path` registry that was the whole prefix becomes the whole new prefix.
 * A string means the pin cannot be moved (why).
 */
export function renamePin(text: string, pin: Pin, from: string, to: string): PinEdit | string {
  const ref = pin.spans.find((s) => s.field === 'ref');
  if (ref) {
    const old = text.slice(ref.start, ref.end);
    const parts = splitRefText(old);
    if (!isUnder(parts.name, from)) return `it is written as ${JSON.stringify(old)}, whose name does not start with ${from}; write the full repository to have it moved`;
    const next = `${mapPrefix(parts.name, from, to)}${old.slice(parts.name.length)}`;
    return { edits: next === old ? [] : [{ start: ref.start, end: ref.end, text: next }], from: old, to: next };
  }
  // registry part(s) first, in file order, then the repository (a chart global lists its shared registry last)
  const nameSpans = [...pin.spans.filter((s) => s.field === 'registry'), ...pin.spans.filter((s) => s.field === 'repository')];
  if (nameSpans.length === 0 || nameSpans[nameSpans.length - 1]!.field !== 'repository') return `it stores no repository field pinwatch can rewrite`;
  // Shared spans (a chart's global registry) repeat for every pin; each is one part.
  const unique = nameSpans.filter((s, i) => nameSpans.findIndex((t) => t.start === s.start && t.end === s.end) === i);
  const texts = unique.map((s) => text.slice(s.start, s.end));
  const written = texts.join('/');
  if (!isUnder(written, from)) return `its fields read ${JSON.stringify(written)}, which does not start with ${from}; write the full repository to have it moved`;
  const moved = mapPrefix(written, from, to);
  // Boundaries: the offset in `written` after each part but the last.
  const boundaries: number[] = [];
  let at = 0;
  for (const t of texts.slice(0, -1)) {
    at += t.length;
    boundaries.push(at);
    at += 1;
  }
  const toSegments = to.split('/');
  const newBoundaries = boundaries.map((b) => {
    if (b >= from.length) return b - from.length + to.length;
    const k = Math.min(segments(written.slice(0, b)), toSegments.length);
    return toSegments.slice(0, k).join('/').length;
  });
  const pieces: string[] = [];
  let prev = 0;
  for (const nb of newBoundaries) {
    if (nb < prev) return `its fields cannot be divided again at the same boundaries under ${to}`;
    pieces.push(moved.slice(prev, nb));
    prev = nb + 1;
  }
  pieces.push(moved.slice(prev));
  if (pieces.some((p) => p === '')) return `moving it to ${to} would leave one of its fields empty (${JSON.stringify(pieces)})`;
  const edits: SpanEdit[] = [];
  unique.forEach((s, i) => {
    if (pieces[i] !== texts[i]) edits.push({ start: s.start, end: s.end, text: pieces[i]! });
  });
  return { edits, from: pin.raw, to: `${pieces.join('/')}${pin.raw.slice(written.length)}` };
}

/** Edits that change the stored tag of a pin to `tag` (digest kept; a digest-only pin is left as it is). */
export function retagPin(text: string, pin: Pin, tag: string): PinEdit | string {
  if (pin.ref.digest === undefined) return `it stores no digest`;
  const r = rewritePin(text, pin, { repository: pin.ref.name, tag, digest: pin.ref.digest, resolvedBy: 'given' });
  return typeof r === 'string' ? r : { edits: r.edits, from: r.from, to: r.to };
}

/**
 * Merge edits from several pins of one file: identical edits of a shared span
 * (a chart's global registry) count once; two different texts for one span are a
 * conflict (returned as a message).
 */
export function mergeEdits(edits: SpanEdit[]): SpanEdit[] | string {
  const byRange = new Map<string, SpanEdit>();
  for (const e of edits) {
    const key = `${e.start}:${e.end}`;
    const seen = byRange.get(key);
    if (seen && seen.text !== e.text) return `one field (offsets ${e.start}-${e.end}) would need two texts: ${JSON.stringify(seen.text)} and ${JSON.stringify(e.text)}`;
    byRange.set(key, e);
  }
  return [...byRange.values()];
}

interface Semver {
  major: number;
  minor: number;
  patch: number;
  pre: string[];
}

/** `v1.2.3`, `1.2.3-rc.1` (a leading `v` is allowed); undefined when not semver. */
export function parseSemver(tag: string): Semver | undefined {
  const m = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(tag);
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre: m[4] ? m[4].split('.') : [] };
}

export function compareSemver(a: Semver, b: Semver): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return a[k] - b[k];
  if (a.pre.length === 0 || b.pre.length === 0) return (a.pre.length === 0 ? 1 : 0) - (b.pre.length === 0 ? 1 : 0);
  for (let i = 0; i < Math.max(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i];
    const y = b.pre[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x) ? Number(x) : undefined;
    const ny = /^\d+$/.test(y) ? Number(y) : undefined;
    if (nx !== undefined && ny !== undefined) {
      if (nx !== ny) return nx - ny;
    } else if (nx !== undefined) return -1;
    else if (ny !== undefined) return 1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Whether `tag` may move mutable tags: it is semver and no tag of the repository is a higher semver. The reason either way. */
export function highestSemver(tag: string, tags: readonly string[]): { ok: boolean; reason: string } {
  const mine = parseSemver(tag);
  if (!mine) return { ok: false, reason: `${tag} is not a semver version, so it cannot be judged the highest (use --force-move)` };
  const higher = tags.filter((t) => {
    const v = parseSemver(t);
    return v !== undefined && compareSemver(v, mine) > 0;
  });
  if (higher.length > 0) return { ok: false, reason: `the repository has a higher version (${higher.slice(0, 3).join(', ')}${higher.length > 3 ? ', …' : ''}) than ${tag} (use --force-move)` };
  return { ok: true, reason: `${tag} is the highest semver among the repository's ${tags.length} tag(s)` };
}

/**
 * How the pins of two copies of a file differ, pin by pin in file order: each
 * pair differing in its stored text is a ref; `digests` when a digest differs,
 * `renamed` when a repository differs, else only tags.
 */
export function pinDifferences(mine: readonly Pin[], theirs: readonly Pin[]): { refs: CompareRef[]; status: CompareStatus; reasons: string[] } {
  const order = (pins: readonly Pin[]) => [...pins].sort((a, b) => Math.min(...a.spans.map((s) => s.start)) - Math.min(...b.spans.map((s) => s.start)));
  const a = order(mine);
  const b = order(theirs);
  const refs: CompareRef[] = [];
  const reasons: string[] = [];
  let status: CompareStatus = 'same';
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.raw === y.raw) continue;
    const keyPath = x.keyPath ?? `${x.shape} ref at line ${x.line}`;
    refs.push({ keyPath, from: y.raw, to: x.raw });
    if (x.ref.digest !== y.ref.digest) {
      status = 'digests';
      reasons.push(`${keyPath}: digest ${y.ref.digest ?? '(none)'} → ${x.ref.digest ?? '(none)'}`);
    } else if (x.ref.name !== y.ref.name) {
      if (status !== 'digests') status = 'drift';
      reasons.push(`${keyPath}: repository ${y.ref.name} → ${x.ref.name} (same digest)`);
    } else if (status === 'same') status = 'tags-only';
  }
  return { refs, status, reasons };
}
