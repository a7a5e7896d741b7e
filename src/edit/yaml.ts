/**
 * Byte-minimal edits inside YAML scalars. Each span edit is mapped to the scalar
 * that holds it. Plain and quoted single-line scalars whose source equals their
 * value are spliced in place (quotes kept); a plain value that would read back as
 * something else (`1.10` → number) is double-quoted. Block scalars and escaped
 * scalars go through the CST (`CST.setScalarValue`). Every edited scalar is
 * re-parsed and must read back as exactly the intended string.
 */
import { Composer, CST, LineCounter, Parser, Scalar, visit } from 'yaml';
import type { Document } from 'yaml';
import { PinwatchError } from '../errors.js';
import type { SpanEdit } from './splice.js';
import { applySpans, shiftOffset, sortedEdits } from './splice.js';

interface ScalarAt {
  node: Scalar;
  start: number;
  valueEnd: number;
}

interface ScalarPlan {
  at: ScalarAt;
  edits: SpanEdit[];
  newValue: string;
  /** The replacement of the scalar's source, and the range it replaces. */
  splice: SpanEdit;
}

function parseDocs(text: string): Document.Parsed[] {
  const lineCounter = new LineCounter();
  const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
  // uniqueKeys: false — yaml's duplicate-key check compares every key of a map with
  // every other (one 20,000-key map took 14 s); the collector reports duplicates itself.
  return [...new Composer({ keepSourceTokens: true, uniqueKeys: false }).compose(tokens)] as Document.Parsed[];
}

function scalarsOf(docs: Document.Parsed[]): ScalarAt[] {
  const out: ScalarAt[] = [];
  for (const doc of docs) {
    visit(doc, {
      Scalar(_key, node) {
        if (node.range) out.push({ node, start: node.range[0], valueEnd: node.range[1] });
      },
    });
  }
  return out;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The content offsets of a single-line scalar whose source text is its value, or undefined. */
function directContent(text: string, at: ScalarAt): { start: number; end: number } | undefined {
  const { node } = at;
  const quoted = node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE;
  if (!quoted && node.type !== Scalar.PLAIN) return undefined;
  const start = quoted ? at.start + 1 : at.start;
  const end = quoted ? at.valueEnd - 1 : at.valueEnd;
  const src = text.slice(start, end);
  if (src.includes('\n') || src.includes('\r')) return undefined;
  const value = node.source ?? String(node.value);
  if (quoted && src !== value) return undefined;
  return { start, end };
}

function doubleQuoted(value: string): string {
  return JSON.stringify(value);
}

/** Edit a scalar through its CST token: setScalarValue keeps its style where it can. */
function tokenSplice(text: string, at: ScalarAt, newValue: string, file: string): SpanEdit {
  const token = at.node.srcToken;
  if (!token) throw new PinwatchError('edit-no-token', 'the YAML scalar has no source token', { file, line: lineOf(text, at.start) });
  const before = CST.stringify(token);
  const offset = token.offset;
  if (text.slice(offset, offset + before.length) !== before) {
    throw new PinwatchError('edit-token-mismatch', 'the YAML scalar token does not match the file text; not editing it', { file, line: lineOf(text, at.start) });
  }
  CST.setScalarValue(token, newValue, { afterKey: true });
  return { start: offset, end: offset + before.length, text: CST.stringify(token) };
}

function planScalar(text: string, at: ScalarAt, edits: SpanEdit[], file: string, forceQuote: boolean): ScalarPlan {
  const content = directContent(text, at);
  if (content) {
    const local = edits.map((e) => ({ start: e.start - content.start, end: e.end - content.start, text: e.text }));
    const newValue = applySpans(text.slice(content.start, content.end), local, file);
    if (forceQuote && at.node.type === Scalar.PLAIN) {
      return { at, edits, newValue, splice: { start: at.start, end: at.valueEnd, text: doubleQuoted(newValue) } };
    }
    return { at, edits, newValue, splice: { start: content.start, end: content.end, text: newValue } };
  }
  // Block or escaped scalar: map each edit onto the value by its old text, then go through the CST.
  let newValue = String(at.node.value);
  for (const e of edits) {
    const old = text.slice(e.start, e.end);
    const first = newValue.indexOf(old);
    if (first === -1 || newValue.indexOf(old, first + 1) !== -1) {
      throw new PinwatchError('edit-ambiguous', `cannot map the edit of ${JSON.stringify(old)} onto the scalar's value exactly once`, { file, line: lineOf(text, e.start) });
    }
    newValue = newValue.slice(0, first) + e.text + newValue.slice(first + old.length);
  }
  return { at, edits, newValue, splice: tokenSplice(text, at, newValue, file) };
}

function groupByScalar(text: string, scalars: ScalarAt[], edits: SpanEdit[], file: string): Map<ScalarAt, SpanEdit[]> {
  // Scalars never overlap, so sorted by start the holder of a span is the last
  // scalar starting at or before it: one sort and a binary search per edit.
  const sorted = scalars.slice().sort((a, b) => a.start - b.start);
  const groups = new Map<ScalarAt, SpanEdit[]>();
  for (const e of edits) {
    const holder = lastStartingAtOrBefore(sorted, e.start);
    if (!holder || e.end > holder.valueEnd) {
      throw new PinwatchError('edit-outside-scalar', `the span ${JSON.stringify(text.slice(e.start, e.end))} is not inside a YAML scalar`, { file, line: lineOf(text, e.start) });
    }
    const list = groups.get(holder);
    if (list) list.push(e);
    else groups.set(holder, [e]);
  }
  return groups;
}

function lastStartingAtOrBefore(sorted: readonly ScalarAt[], offset: number): ScalarAt | undefined {
  let lo = 0;
  let hi = sorted.length - 1;
  let found: ScalarAt | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.start <= offset) {
      found = sorted[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

export interface YamlEditResult {
  text: string;
  /** Scalars that had to be quoted so they read back as strings. */
  quoted: number;
}

/**
 * Apply span edits to a YAML text. Throws PinwatchError when the file does not
 * parse, a span is not inside a scalar, or an edited scalar would not read back
 * as the intended string.
 */
export function editYaml(text: string, edits: SpanEdit[], file = ''): YamlEditResult {
  if (edits.length === 0) return { text, quoted: 0 };
  sortedEdits(edits, file);
  const forced = new Set<number>();
  for (let round = 0; round < 2; round++) {
    const docs = parseDocs(text);
    const broken = docs.find((d) => d.errors.length > 0);
    if (broken) throw new PinwatchError('edit-yaml-invalid', `not editing: the file does not parse as YAML (${broken.errors[0]!.message.split('\n')[0]})`, { file });
    const groups = groupByScalar(text, scalarsOf(docs), edits, file);
    const plans = [...groups].map(([at, es]) => planScalar(text, at, es, file, forced.has(at.start)));
    const splices = sortedEdits(plans.map((p) => p.splice), file);
    const out = applySpans(text, splices, file);
    const failed = readBackFailures(out, plans, splices);
    if (failed.length === 0) return { text: out, quoted: forced.size };
    const fixable = failed.filter((p) => p.at.node.type === Scalar.PLAIN && !forced.has(p.at.start));
    if (fixable.length !== failed.length) {
      const p = failed[0]!;
      throw new PinwatchError('edit-readback', `after the edit the value would not read back as ${JSON.stringify(p.newValue)}; not writing`, { file, line: lineOf(text, p.at.start) });
    }
    for (const p of fixable) forced.add(p.at.start);
  }
  throw new PinwatchError('edit-readback', 'an edited value would not read back as the same string even quoted; not writing', { file });
}

/** Re-parse the edited text and return the plans whose scalar no longer reads back as the new string. */
function readBackFailures(out: string, plans: ScalarPlan[], splices: SpanEdit[]): ScalarPlan[] {
  const docs = parseDocs(out);
  if (docs.some((d) => d.errors.length > 0)) return plans;
  const byStart = new Map(scalarsOf(docs).map((s) => [s.start, s]));
  return plans.filter((p) => {
    const found = byStart.get(shiftOffset(p.at.start, splices));
    return !found || typeof found.node.value !== 'string' || found.node.value !== p.newValue;
  });
}
