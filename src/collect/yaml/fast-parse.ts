/**
 * A fast parser for the plain subset of YAML that most values files are written
 * in: one document whose root is a block map or sequence (or a one-line `{}`),
 * block maps with plain keys, block sequences, plain and simple quoted one-line
 * scalars, one-line flow collections, comments. It builds the nodes the `yaml`
 * library would (same values, sources, styles, ranges) and returns undefined for
 * anything outside the subset — anchors, aliases, tags, block scalars, multi-line
 * scalars, escapes, quoted or non-string keys, document markers, directives, tabs,
 * CR, BOM, non-ASCII outside comments, over-long lines — so the caller parses
 * those with `yaml`. It is about 25x faster than `yaml`'s parseAllDocuments.
 * fast-parse.test.ts compares both, node by node, on fixtures and fuzzed input.
 */
import { isScalar, Pair, Scalar, Schema, YAMLMap, YAMLSeq, type Node, type ScalarTag } from 'yaml';

/** Thrown (and caught in fastParse) when the text leaves the subset. */
const OUTSIDE = Symbol('outside the fast YAML subset');

/**
 * Whole-text reasons to use the full parser: tabs, CR, controls, BOM, line
 * separators. (`{{` needs no check: a value starting with `{{` is not a flow map
 * of the subset, and keys are always plain scalars, so the collector's template
 * leak check can never fire on a fast-parsed tree.)
 */
const UNSUPPORTED_TEXT = /[\x00-\x09\x0b-\x1f\x7f\u0085\u2028\u2029\ufeff]/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** First characters that start something other than a plain scalar (or need care). */
const INDICATORS = '?:,[]{}#&*!|>\'"%@`';
const FLOW_STOP = ',[]{}';
const MAX_LINE = 1000;

/** The core schema's scalar tags that yaml tries, in order, on a plain scalar. */
const CORE_TAGS = new Schema({}).tags.filter((t): t is ScalarTag => t.default === true && !t.collection && t.test !== undefined);
const RESOLVE_OPTIONS = { intAsBigInt: false };

interface Line {
  start: number;
  end: number;
  /** Column of the first non-space character. */
  col: number;
}

interface Cursor {
  text: string;
  lines: Line[];
  /** Index of the current content line. */
  i: number;
}

/**
 * Node factories. yaml's constructors mark each node's kind with a symbol-keyed
 * property defined per instance (Object.defineProperty: slow for ~100k nodes);
 * these objects inherit the very same mark from a per-kind prototype, so
 * isScalar/isMap/isSeq/isPair, instanceof and the classes' methods all work.
 */
function factoryLike<T extends object>(sample: T): () => T {
  const marks = Object.getOwnPropertySymbols(sample);
  const descriptors = Object.fromEntries(marks.map((m) => [m, { value: (sample as Record<symbol, unknown>)[m] }]));
  const proto = Object.create(Object.getPrototypeOf(sample) as object, descriptors) as object;
  return () => Object.create(proto) as T;
}
const scalarLike = factoryLike(new Scalar<unknown>(null));
const mapLike = factoryLike(new YAMLMap());
const seqLike = factoryLike(new YAMLSeq());
const pairLike = factoryLike(new Pair<Scalar | null, Node | null>(null));

function newScalar(value: unknown): Scalar {
  const s = scalarLike();
  s.value = value;
  return s;
}

function newMap(flow: boolean): YAMLMap {
  const m = mapLike();
  m.items = [];
  if (flow) m.flow = true;
  return m;
}

function newSeq(flow: boolean): YAMLSeq {
  const q = seqLike();
  q.items = [];
  if (flow) q.flow = true;
  return q;
}

function newPair(key: Scalar, value: Node | null): Pair<Scalar | null, Node | null> {
  const p = pairLike();
  p.key = key;
  p.value = value;
  return p;
}

const fail = (): never => {
  throw OUTSIDE;
};

/** The root collection of `text`, or undefined when it is outside the subset. */
export function fastParse(text: string): YAMLMap | YAMLSeq | undefined {
  if (UNSUPPORTED_TEXT.test(text)) return undefined;
  try {
    const cur: Cursor = { text, lines: contentLines(text), i: 0 };
    const first = cur.lines[0];
    if (!first || first.col !== 0) return undefined;
    const root = rootNode(cur, first);
    return cur.i === cur.lines.length ? root : undefined;
  } catch (e) {
    if (e === OUTSIDE) return undefined;
    throw e;
  }
}

/** A block collection, or a flow collection alone on its line (`{}` values files). */
function rootNode(cur: Cursor, first: Line): YAMLMap | YAMLSeq {
  const c = cur.text[first.start];
  if (c !== '{' && c !== '[') return blockNode(cur, 0, first.start);
  const node = inlineValue(cur.text, first.start, first.end) as YAMLMap | YAMLSeq;
  cur.i++;
  return node;
}

/** Lines that are not blank or comment-only; document markers and directives leave the subset. */
function contentLines(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end - start > MAX_LINE) fail();
    let p = start;
    while (p < end && text.charCodeAt(p) === 32) p++;
    if (p < end && text[p] !== '#') {
      if (p === start && (text.startsWith('---', p) || text.startsWith('...', p) || text[p] === '%')) fail();
      out.push({ start, end, col: p - start });
    }
    start = end + 1;
  }
  return out;
}

/** A block map or sequence starting at `pos` (on the current line) with its items at column `col`. */
function blockNode(cur: Cursor, col: number, pos: number): YAMLMap | YAMLSeq {
  if (isSeqItem(cur.text, pos, cur.lines[cur.i]!.end)) return blockSeq(cur, col, pos);
  return blockMap(cur, col, pos);
}

function isSeqItem(text: string, pos: number, end: number): boolean {
  return text[pos] === '-' && (pos + 1 === end || text[pos + 1] === ' ');
}

function blockMap(cur: Cursor, col: number, firstPos: number): YAMLMap {
  const map = newMap(false);
  map.range = [firstPos, firstPos, firstPos];
  let pos = firstPos;
  for (;;) {
    const line = cur.lines[cur.i]!;
    const key = keyAt(cur.text, pos, line.end);
    const pair = newPair(key, null);
    map.items.push(pair);
    pair.value = pairValue(cur, col, key.range![1] + 1, line);
    const next = cur.lines[cur.i];
    if (!next || next.col < col) break;
    if (next.col > col) fail();
    pos = next.start + next.col;
  }
  map.range[1] = map.range[2] = lastEnd(map);
  return map;
}

function blockSeq(cur: Cursor, col: number, firstPos: number): YAMLSeq {
  const seq = newSeq(false);
  seq.range = [firstPos, firstPos, firstPos];
  let pos = firstPos;
  for (;;) {
    const line = cur.lines[cur.i]!;
    seq.items.push(seqItem(cur, col, pos, line));
    const next = cur.lines[cur.i];
    if (!next || next.col < col) break;
    if (next.col > col) fail();
    pos = next.start + next.col;
    if (!isSeqItem(cur.text, pos, next.end)) break; // the parent map continues at this column
  }
  seq.range[1] = seq.range[2] = lastEnd(seq);
  return seq;
}

function lastEnd(node: YAMLMap | YAMLSeq): number {
  const last = node.items[node.items.length - 1] as unknown;
  const value = (last instanceof Pair ? last.value : last) as Node | null;
  return value?.range?.[2] ?? node.range![0];
}

/** `key:` at pos: a plain key that resolves to a string, followed by `:` and a space or the line end. */
function keyAt(text: string, pos: number, end: number): Scalar {
  let p = pos;
  const c0 = text.charCodeAt(p);
  if (!isKeyStart(c0)) fail();
  while (p < end && isKeyChar(text.charCodeAt(p))) p++;
  if (text[p] !== ':' || (p + 1 < end && text[p + 1] !== ' ')) fail();
  const source = text.slice(pos, p);
  const key = plainScalar(source, pos, p, p);
  if (typeof key.value !== 'string') fail();
  return key;
}

/** Character classes by code (ASCII): 1 starts a key, 2 continues one. */
const KEY_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  KEY_CLASS[c] = alnum ? 3 : c === 45 || c === 46 || c === 47 ? 2 : 0; // - . / continue a key
}

function isKeyStart(c: number): boolean {
  return c < 128 && (KEY_CLASS[c]! & 1) !== 0;
}

function isKeyChar(c: number): boolean {
  return c < 128 && (KEY_CLASS[c]! & 2) !== 0;
}

/** The value after `key:` (pos is just after the colon); advances the cursor past it. */
function pairValue(cur: Cursor, keyCol: number, pos: number, line: Line): Node {
  const { text } = cur;
  let q = pos;
  while (q < line.end && text.charCodeAt(q) === 32) q++;
  cur.i++;
  if (q === line.end || text[q] === '#') {
    const next = cur.lines[cur.i];
    if (next && next.col > keyCol) return blockNode(cur, next.col, next.start + next.col);
    if (next && next.col === keyCol && isSeqItem(text, next.start + next.col, next.end)) return blockSeq(cur, keyCol, next.start + next.col);
    const empty = newScalar(null);
    empty.source = '';
    empty.type = Scalar.PLAIN;
    empty.range = [q, q, q];
    return empty;
  }
  const value = inlineValue(text, q, line.end);
  endOfInline(cur, keyCol);
  return value;
}

function seqItem(cur: Cursor, dashCol: number, dash: number, line: Line): Node {
  const { text } = cur;
  let q = dash + 1;
  while (q < line.end && text.charCodeAt(q) === 32) q++;
  if (q === line.end || text[q] === '#') {
    cur.i++;
    const next = cur.lines[cur.i];
    if (next && next.col > dashCol) return blockNode(cur, next.col, next.start + next.col);
    return fail();
  }
  if (isSeqItem(text, q, line.end)) fail();
  if (looksLikeKey(text, q, line.end)) return blockMap(cur, q - line.start, q);
  const value = inlineValue(text, q, line.end);
  cur.i++;
  endOfInline(cur, dashCol);
  return value;
}

/** `word:` followed by a space or the line end (a compact map inside a sequence item). */
function looksLikeKey(text: string, pos: number, end: number): boolean {
  let p = pos;
  while (p < end && isKeyChar(text.charCodeAt(p))) p++;
  return p > pos && text[p] === ':' && (p + 1 === end || text[p + 1] === ' ');
}

/** After a one-line value, the next content line must not be indented past its owner (a continuation). */
function endOfInline(cur: Cursor, ownerCol: number): void {
  const next = cur.lines[cur.i];
  if (next && next.col > ownerCol) fail();
}

/** A scalar or flow collection that ends on this line, followed only by spaces and a comment. */
function inlineValue(text: string, q: number, end: number): Node {
  const c = text[q]!;
  let node: Node;
  let after: number;
  if (c === '"' || c === "'") {
    node = quoted(text, q, end);
    after = node.range![1];
  } else if (c === '[' || c === '{') {
    const flow = flowCollection(text, q, end);
    node = flow;
    after = flow.range![1];
  } else {
    return blockPlain(text, q, end);
  }
  restOfLine(text, after, end);
  node.range![2] = lineEnd(text, end);
  return node;
}

function restOfLine(text: string, after: number, end: number): void {
  if (after === end) return;
  if (text[after] !== ' ') fail();
  let p = after;
  while (p < end && text.charCodeAt(p) === 32) p++;
  if (p < end && text[p] !== '#') fail();
}

function lineEnd(text: string, end: number): number {
  return end < text.length ? end + 1 : end;
}

/** A plain scalar in block context: up to ` #` or the line end, trailing spaces trimmed. */
function blockPlain(text: string, q: number, end: number): Scalar {
  checkPlainStart(text, q, end);
  // Up to ` #`; printable ASCII only; `: ` or a final `:` (a key, not a value) leaves the subset.
  let e = q;
  for (; e < end; e++) {
    const c = text.charCodeAt(e);
    if (c === 35 && text.charCodeAt(e - 1) === 32) break;
    if (c < 0x20 || c > 0x7e) fail();
    if (c === 58 && (e + 1 === end || text.charCodeAt(e + 1) === 32)) fail();
  }
  while (e > q && text.charCodeAt(e - 1) === 32) e--;
  return plainScalar(text.slice(q, e), q, e, lineEnd(text, end));
}

function checkPlainStart(text: string, q: number, end: number): void {
  const c = text[q]!;
  if (INDICATORS.includes(c)) fail();
  if (c === '-' && (q + 1 === end || text[q + 1] === ' ')) fail();
}

/** A plain scalar resolved with the core schema, exactly as yaml's composer does. */
function plainScalar(source: string, start: number, end: number, nodeEnd: number): Scalar {
  let scalar: Scalar | undefined;
  if (mayBeNonString(source)) scalar = resolveByTag(source);
  scalar ??= newScalar(source);
  scalar.range = [start, end, nodeEnd];
  scalar.source = source;
  scalar.type = Scalar.PLAIN;
  return scalar;
}

/**
 * Every core-schema null, bool, int and float starts with one of `~ n N t T f F
 * + - . 0-9` (or is empty); anything else is a string without running the tests.
 */
function mayBeNonString(source: string): boolean {
  if (source === '') return true;
  const c = source.charCodeAt(0);
  return (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46 || c === 126 || c === 110 || c === 78 || c === 116 || c === 84 || c === 102 || c === 70;
}

function resolveByTag(source: string): Scalar | undefined {
  let scalar: Scalar | undefined;
  for (const tag of CORE_TAGS) {
    if (!tag.test!.test(source)) continue;
    const res = tag.resolve(source, fail, RESOLVE_OPTIONS as Parameters<ScalarTag['resolve']>[2]);
    scalar = isScalar(res) ? (res as Scalar) : newScalar(res);
    if (tag.format) scalar.format = tag.format;
    break;
  }
  return scalar;
}

/** A quoted scalar on one line with no escapes (`\` in double, `''` in single quotes). */
function quoted(text: string, q: number, end: number): Scalar {
  const quote = text[q]!;
  const close = text.indexOf(quote, q + 1);
  if (close === -1 || close >= end) fail();
  const value = text.slice(q + 1, close);
  if (!PRINTABLE_ASCII.test(value) || (quote === '"' && value.includes('\\')) || (quote === "'" && text[close + 1] === "'")) fail();
  const scalar = newScalar(value);
  scalar.range = [q, close + 1, close + 1];
  scalar.source = value;
  scalar.type = quote === '"' ? Scalar.QUOTE_DOUBLE : Scalar.QUOTE_SINGLE;
  return scalar;
}

function skipSpaces(text: string, p: number, end: number): number {
  while (p < end && text.charCodeAt(p) === 32) p++;
  return p;
}

/** `[a, "b", {c: d}]` or `{a: b, c: [d]}` closed on the same line; no empty or trailing entries. */
function flowCollection(text: string, open: number, end: number): YAMLMap | YAMLSeq {
  const isMap = text[open] === '{';
  const node = isMap ? newMap(true) : newSeq(true);
  const close = isMap ? '}' : ']';
  let p = skipSpaces(text, open + 1, end);
  if (text[p] === close) {
    node.range = [open, p + 1, p + 1];
    return node;
  }
  for (;;) {
    if (isMap) {
      const key = keyAt(text, p, end);
      const valueAt = skipSpaces(text, key.range![1] + 1, end);
      if (valueAt === key.range![1] + 1) fail();
      const value = flowValue(text, valueAt, end);
      (node as YAMLMap).items.push(newPair(key, value));
      p = value.range![1];
    } else {
      const value = flowValue(text, p, end);
      (node as YAMLSeq).items.push(value);
      p = value.range![1];
    }
    p = skipSpaces(text, p, end);
    if (text[p] === close) break;
    if (text[p] !== ',') fail();
    p = skipSpaces(text, p + 1, end);
    if (text[p] === close || text[p] === ',') fail();
  }
  node.range = [open, p + 1, p + 1];
  return node;
}

function flowValue(text: string, p: number, end: number): Node {
  const c = text[p];
  if (c === '"' || c === "'") return quoted(text, p, end);
  if (c === '[' || c === '{') return flowCollection(text, p, end);
  if (p >= end) fail();
  checkPlainStart(text, p, end);
  // In flow context `-` starts a plain scalar only before a safe character (`[-]` is a block sequence: an error).
  if (c === '-' && !isKeyChar(text.charCodeAt(p + 1))) fail();
  let e = p;
  while (e < end && !FLOW_STOP.includes(text[e]!) && !(text[e] === '#' && text[e - 1] === ' ')) e++;
  while (e > p && text.charCodeAt(e - 1) === 32) e--;
  const source = text.slice(p, e);
  if (source === '' || source.includes(':') || source.includes('#') || !PRINTABLE_ASCII.test(source)) fail();
  return plainScalar(source, p, e, e);
}
