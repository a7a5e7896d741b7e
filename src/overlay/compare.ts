/**
 * Compare a committed file with its artifact copy: are all differences refs?
 * Structural: mask every pin span in both copies (pins must correspond) and
 * compare what remains line by line. Line fallback (a copy did not parse): a
 * differing line is a ref line only if the collector found a ref on it.
 * Pure: text and collector results in, a verdict with every differing line out.
 */
import { diffArrays } from 'diff';
import type { CollectResult, FileKind } from '../collect/index.js';
import type { Problem } from '../model/index.js';
import { maskText, pinCorrespondence, refLines } from './mask.js';
import { hasMask, isCommentLine, lineEntries, splitComment, type LineEntry } from './lines.js';
import type { CompareMethod, DriftLine } from './types.js';

export interface CompareSide {
  text: string;
  collected: CollectResult;
}

export interface CompareOptions {
  ignoreComments: boolean;
  /** With `aliases`: whether a committed pin's repository and the artifact's name the same image (the CI alias of it); unset, any repository is a ref difference. */
  sameImage?: (committed: string, artifact: string) => boolean;
}

export interface Comparison {
  /** True when every difference is a ref (comments too, under --ignore-comments). */
  refOnly: boolean;
  method: CompareMethod;
  /** Why the line fallback was used, or why the file drifted. */
  reason?: string;
  pinDrift: string[];
  /** Non-ref differing lines (drift), or the ignored comment lines when refOnly. */
  lines: DriftLine[];
}

export function compareCopies(kind: FileKind, committed: CompareSide, artifact: CompareSide, options: CompareOptions): Comparison {
  const fallback = fallbackCause(committed.collected, artifact.collected);
  return fallback === undefined ? compareStructural(kind, committed, artifact, options) : compareLines(kind, committed, artifact, options, fallback);
}

function fallbackCause(a: CollectResult, b: CollectResult): string | undefined {
  if (a.scrapedBecause) return `the checkout copy did not parse (${a.scrapedBecause}): compared line by line`;
  if (b.scrapedBecause) return `the artifact copy did not parse (${b.scrapedBecause}): compared line by line`;
  return undefined;
}

const commentsApply = (kind: FileKind) => kind !== 'tag';

function compareStructural(kind: FileKind, a: CompareSide, b: CompareSide, options: CompareOptions): Comparison {
  const pinDrift = pinCorrespondence(a.collected.pins, b.collected.pins, options.sameImage);
  const ctx: LineContext = { ...sides(a, b, kind), refLinesA: undefined, refLinesB: undefined };
  const verdict = judge(maskText(a.text, a.collected.pins), maskText(b.text, b.collected.pins), ctx, options);
  const refOnly = pinDrift.length === 0 && verdict.blocking.length === 0;
  if (refOnly) return { refOnly, method: 'structural', pinDrift, lines: verdict.ignored() };
  return { refOnly, method: 'structural', pinDrift, lines: verdict.blocking, reason: driftReason(pinDrift, verdict.blocking) };
}

function compareLines(kind: FileKind, a: CompareSide, b: CompareSide, options: CompareOptions, cause: string): Comparison {
  const ctx: LineContext = { ...sides(a, b, kind), refLinesA: refLines(a.text, a.collected.pins), refLinesB: refLines(b.text, b.collected.pins) };
  const verdict = judge(a.text, b.text, ctx, options);
  if (verdict.blocking.length === 0) return { refOnly: true, method: 'line-fallback', pinDrift: [], lines: verdict.ignored(), reason: cause };
  return { refOnly: false, method: 'line-fallback', pinDrift: [], lines: verdict.blocking, reason: `${cause}; ${driftReason([], verdict.blocking)}` };
}

/**
 * The lines that block an overlay (comments cut off first under --ignore-comments),
 * and, computed only when asked, the comment lines that were ignored.
 */
function judge(textA: string, textB: string, ctx: LineContext, options: CompareOptions): { blocking: DriftLine[]; ignored: () => DriftLine[] } {
  const dropComments = options.ignoreComments && commentsApply(ctx.kind);
  const notRefLine = (l: Classified): l is DriftLine => l.kind !== 'ref-line';
  const blocking = differingLines(textA, textB, dropComments, ctx).filter(notRefLine);
  const ignored = () => (dropComments ? differingLines(textA, textB, false, ctx).filter(notRefLine).filter((l) => l.kind === 'comment') : []);
  return { blocking, ignored };
}

function driftReason(pinDrift: string[], lines: DriftLine[]): string {
  if (pinDrift.length > 0) return `the pins do not correspond: ${pinDrift[0]}${pinDrift.length > 1 ? ` (and ${pinDrift.length - 1} more)` : ''}`;
  const n = lines.length;
  if (n > 0 && lines.every((l) => l.kind === 'comment')) {
    return `only comments differ (${n} line${n === 1 ? '' : 's'}); comments can carry intent, so the committed file is kept (--ignore-comments overlays it)`;
  }
  return `${n} non-ref line${n === 1 ? '' : 's'} differ${n === 1 ? 's' : ''}${kindBreakdown(lines)}`;
}

const KIND_WORDS: Record<DriftLine['kind'], string> = {
  config: 'config',
  comment: 'comment',
  'around-ref': 'beside a ref',
  unrecognised: 'no recognised ref',
};

/** ` (2 config, 5 comment)` when more than one kind of line differs. */
function kindBreakdown(lines: DriftLine[]): string {
  const counts = new Map<DriftLine['kind'], number>();
  for (const l of lines) counts.set(l.kind, (counts.get(l.kind) ?? 0) + 1);
  if (counts.size < 2) return '';
  return ` (${[...counts].map(([k, c]) => `${c} ${KIND_WORDS[k]}`).join(', ')})`;
}

function sides(a: CompareSide, b: CompareSide, kind: FileKind) {
  return { a, b, kind, linesA: a.text.split('\n'), linesB: b.text.split('\n') };
}

interface LineContext {
  a: CompareSide;
  b: CompareSide;
  kind: FileKind;
  /** The original lines of each copy, for display. */
  linesA: string[];
  linesB: string[];
  /** Set in line-fallback mode: the lines that carry a recognised ref. */
  refLinesA: Set<number> | undefined;
  refLinesB: Set<number> | undefined;
}

/** Internal kind for line-fallback lines that are refs on both sides (never reported). */
type Classified = Omit<DriftLine, 'kind'> & { kind: DriftLine['kind'] | 'ref-line' };

function differingLines(textA: string, textB: string, dropComments: boolean, ctx: LineContext): Classified[] {
  const apply = commentsApply(ctx.kind);
  const ea = lineEntries(textA, dropComments, apply);
  const eb = lineEntries(textB, dropComments, apply);
  const keysA = ea.map((e) => e.key);
  const keysB = eb.map((e) => e.key);
  if (keysA.length === keysB.length && keysA.every((k, i) => k === keysB[i])) return [];
  const changes = diffArrays(keysA, keysB, { maxEditLength: MAX_EDIT_LENGTH });
  if (changes === undefined) return [tooManyChanges(ea, eb, ctx)];
  const out: Classified[] = [];
  let ia = 0;
  let ib = 0;
  for (let c = 0; c < changes.length; c++) {
    const change = changes[c]!;
    const n = change.count ?? change.value.length;
    if (!change.added && !change.removed) {
      ia += n;
      ib += n;
      continue;
    }
    const next = changes[c + 1];
    const removed = change.removed ? ea.slice(ia, ia + n) : [];
    const added = change.added ? eb.slice(ib, ib + n) : change.removed && next?.added ? eb.slice(ib, ib + (next.count ?? next.value.length)) : [];
    if (change.removed && next?.added) c++;
    ia += removed.length;
    ib += added.length;
    const pairs = Math.max(removed.length, added.length);
    const near = ea[ia]?.line ?? (ea.length > 0 ? (ea[ea.length - 1] as LineEntry).line : 1);
    for (let i = 0; i < pairs; i++) out.push(classify(removed[i], added[i], ctx, near));
  }
  return out;
}

/** Beyond this many changed lines the diff is not computed (cost grows with it); the file still drifts. */
const MAX_EDIT_LENGTH = 1000;

function tooManyChanges(ea: LineEntry[], eb: LineEntry[], ctx: LineContext): Classified {
  return {
    line: ea[0]?.line,
    artifactLine: eb[0]?.line,
    kind: ctx.refLinesA ? 'unrecognised' : 'config',
    reason: `more than ${MAX_EDIT_LENGTH} line edits separate the copies (${ea.length} lines in the checkout, ${eb.length} in the artifact); not listed one by one`,
  };
}

function originalLine(lines: readonly string[], line: number): string {
  return (lines[line - 1] ?? '').replace(/\r$/, '');
}

function classify(ea: LineEntry | undefined, eb: LineEntry | undefined, ctx: LineContext, near: number): Classified {
  const base: Classified = {
    line: ea?.line,
    artifactLine: eb?.line,
    ...(ea ? {} : { nearLine: near }),
    committed: ea ? originalLine(ctx.linesA, ea.line) : undefined,
    artifact: eb ? originalLine(ctx.linesB, eb.line) : undefined,
    kind: 'config',
    reason: '',
  };
  const problem = problemNote(ctx.a.collected.problems, ea?.line) ?? problemNote(ctx.b.collected.problems, eb?.line);
  const verdict = ctx.refLinesA ? classifyFallback(ea, eb, ctx) : classifyMasked(ea, eb, ctx);
  return { ...base, ...verdict, reason: verdict.reason + (problem ?? '') };
}

function classifyMasked(ea: LineEntry | undefined, eb: LineEntry | undefined, ctx: LineContext): Pick<Classified, 'kind' | 'reason'> {
  const comments = commentsApply(ctx.kind);
  if (ea && eb) {
    if (comments && splitComment(ea.masked).code.trimEnd() === splitComment(eb.masked).code.trimEnd()) {
      return { kind: 'comment', reason: 'only the comment differs (comments can carry intent)' };
    }
    const refA = hasMask(ea.masked);
    const refB = hasMask(eb.masked);
    if (refA && refB) return { kind: 'around-ref', reason: 'the line carries an image reference, but text outside the reference differs' };
    if (refA || refB) return { kind: 'unrecognised', reason: `an image reference is recognised on the ${refA ? 'checkout' : 'artifact'} side of this line only` };
    return { kind: 'config', reason: 'no image reference on this line' };
  }
  const entry = (ea ?? eb) as LineEntry;
  const where = ea ? 'only in the checkout' : 'only in the artifact';
  if (comments && isCommentLine(entry.masked)) return { kind: 'comment', reason: `comment line ${where} (comments can carry intent)` };
  if (hasMask(entry.masked)) return { kind: 'around-ref', reason: `line ${where}; it carries an image reference, so a pin was added or removed` };
  return { kind: 'config', reason: `line ${where}; no image reference on it` };
}

function classifyFallback(ea: LineEntry | undefined, eb: LineEntry | undefined, ctx: LineContext): Pick<Classified, 'kind' | 'reason'> {
  const refA = ea !== undefined && (ctx.refLinesA as Set<number>).has(ea.line);
  const refB = eb !== undefined && (ctx.refLinesB as Set<number>).has(eb.line);
  const comments = commentsApply(ctx.kind);
  if (ea && eb) {
    if (refA && refB) return { kind: 'ref-line', reason: 'both copies carry a recognised ref on this line' };
    if (comments && splitComment(ea.masked).code.trimEnd() === splitComment(eb.masked).code.trimEnd()) {
      return { kind: 'comment', reason: 'only the comment differs (comments can carry intent)' };
    }
    const side = refA ? 'the artifact copy' : refB ? 'the checkout copy' : 'either copy';
    return { kind: 'unrecognised', reason: `no image reference the collector recognises on ${side} of this line` };
  }
  const entry = (ea ?? eb) as LineEntry;
  const where = ea ? 'only in the checkout' : 'only in the artifact';
  if (comments && isCommentLine(entry.masked)) return { kind: 'comment', reason: `comment line ${where} (comments can carry intent)` };
  if (refA || refB) return { kind: 'unrecognised', reason: `line ${where}; it carries a ref, so the number of refs differs` };
  return { kind: 'unrecognised', reason: `line ${where}; no image reference the collector recognises on it` };
}

function problemNote(problems: readonly Problem[], line: number | undefined): string | undefined {
  if (line === undefined) return undefined;
  const p = problems.find((q) => q.line === line);
  return p ? `; the collector did not read it as a ref: ${p.reason}` : undefined;
}
