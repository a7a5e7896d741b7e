/**
 * A fast parser for the plain subset of YAML that most values files, generated
 * manifests and recipe files (workflows, compose, GoReleaser, Cloud Build,
 * Skaffold, kustomizations) are written in: documents separated by bare `---`
 * lines, each with a root block map or sequence (or a one-line `{}`), block
 * maps with plain or one-line quoted keys, block sequences, quoted scalars (one
 * line, with yaml's double-quote escapes; or several lines without escapes),
 * plain scalars (folded over more-indented continuation lines, as CRD
 * descriptions are), `|`/`|-`/`>`/`>-` block scalars (blank and whitespace-only
 * lines included), one-line flow collections, comments of any length, non-ASCII
 * text. It builds the nodes the `yaml` library would (same values, sources,
 * styles, ranges) and returns undefined for anything outside the subset —
 * anchors, aliases, tags, `|+` and indentation indicators, multi-line flow
 * collections, `...` and other document markers, directives, tabs, CR, BOM, C1
 * controls and line separators, keys over 1000 characters — so the caller
 * parses those with `yaml`. It is about 25x faster than `yaml`'s
 * parseAllDocuments. fast-parse.test.ts compares both, node by node, on
 * fixtures and fuzzed input.
 *
 * With `inert` (the YAML collector's), a block map or sequence that is the
 * value of a key below the document's root map, and whose text the caller calls
 * inert, is checked (skimmed) instead of built: the same rules on the raw text,
 * mostly with native searches, no lines or nodes, and it stands in the tree as
 * an empty node of the same kind and range. A part the skim does not take (a
 * quoted or repeated key, a double-quoted scalar over several lines, leading
 * blank lines in a block scalar) is built as always. Content lines are read on
 * demand, so a left-out value's lines are never materialised.
 */
import { isScalar, Pair, Scalar, Schema, YAMLMap, YAMLSeq, type Node, type ScalarTag } from 'yaml';

/** Thrown (and caught in fastParse) when the text leaves the subset. */
const OUTSIDE = Symbol('outside the fast YAML subset');

/**
 * Whole-text reasons to use the full parser: tabs, CR, controls, BOM, line
 * separators. (`{{` needs no check: a value starting with `{{` is not a flow map
 * of the subset, and keys are always scalars, so the collector's template leak
 * check can never fire on a fast-parsed tree.)
 */
const UNSUPPORTED_TEXT = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** First characters that start something other than a plain scalar (or need care). */
const INDICATORS = '?:,[]{}#&*!|>\'"%@`';
const FLOW_STOP = ',[]{}';
/** yaml refuses an implicit key whose `:` is more than 1024 characters past its start. */
const MAX_KEY = 1000;
/** The first character that is not a space (native scanning: a cold 1 MB manifest has ~30 columns of indentation a line). */
const NOT_SPACE = /[^ ]/g;

/** The first non-space position in [from, end), or end. */
function skipIndent(text: string, from: number, end: number): number {
  if (text.charCodeAt(from) !== 32) return from;
  NOT_SPACE.lastIndex = from;
  const m = NOT_SPACE.exec(text);
  return m && m.index < end ? m.index : end;
}

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
  /** The document's content lines read so far (lineAt reads on, from `scan` up to `stop`, as the parse needs them). */
  lines: Line[];
  /** Index of the current content line. */
  i: number;
  scan: number;
  /** Where the document's lines start and end. */
  first: number;
  stop: number;
  inert: Inert | undefined;
  /** The lines enclosing the last read offset a value was checked against (holdsRead). */
  enclosing?: Enclosing;
}

/** A content line: not blank, not a comment (`^` at a line start; the match ends past its first character). */
const CONTENT = /^ *[^ \n#]/gm;

/** Content line `k` of the cursor's document, read on demand; undefined past its end. */
function lineAt(cur: Cursor, k: number): Line | undefined {
  const { lines, text } = cur;
  while (lines.length <= k) {
    CONTENT.lastIndex = cur.scan;
    const p = CONTENT.test(text) ? CONTENT.lastIndex - 1 : cur.stop;
    if (p >= cur.stop) {
      cur.scan = cur.stop;
      return undefined;
    }
    const start = text.lastIndexOf('\n', p) + 1;
    let end = text.indexOf('\n', p);
    if (end === -1) end = text.length;
    lines.push({ start, end, col: p - start });
    cur.scan = end + 1;
  }
  return lines[k];
}

/** Moves the cursor past the content lines that start before `offset` (a line start), reading none it can skip. */
function skipTo(cur: Cursor, offset: number): void {
  if (cur.lines.length <= cur.i) {
    cur.scan = Math.max(cur.scan, offset);
    return;
  }
  for (let line = lineAt(cur, cur.i); line && line.start < offset; line = lineAt(cur, cur.i)) cur.i++;
}

/**
 * What fastParseAll may leave out: `next(from)` is the first offset at or after
 * `from` where the caller may need the tree (Infinity when none). A block map
 * or sequence that is the value of a key in a map other than a document's root
 * map (and not under its `global` or `images` key), and whose text holds no
 * such offset, is left out when the skim takes it (an empty node of the same
 * kind and range stands in).
 */
export interface Inert {
  next(from: number): number;
}

/** Where a map's pair values may be left out: not at a document's root, nor anywhere under its `global` or `images` key. */
const enum Skim {
  Root,
  Below,
  Never,
}

/** Thrown when a skim meets what it does not check (a quoted or repeated key): that part is built instead. */
const NOT_SKIMMED = Symbol('not skimmed');

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

/** The root collection of a one-document `text`, or undefined when it is outside the subset (or has several documents). */
export function fastParse(text: string): YAMLMap | YAMLSeq | undefined {
  const docs = fastParseAll(text);
  const root = docs?.length === 1 ? docs[0] : undefined;
  return root && !isScalar(root) ? root : undefined;
}

/**
 * Every document's root, as `yaml`'s parseAllDocuments counts and builds them
 * (an empty document after a `---` marker is a null plain scalar at the
 * marker's end; a text of blank and comment lines only has no document), or
 * undefined when any part of the text is outside the subset.
 */
export function fastParseAll(text: string, inert?: Inert): (YAMLMap | YAMLSeq | Scalar)[] | undefined {
  const docs = eachDocument(text, inert, true);
  return docs?.every((d) => 'root' in d) ? docs.map((d) => (d as { root: YAMLMap | YAMLSeq | Scalar }).root) : undefined;
}

/**
 * One document of fastParseEach: its root as the fast parser builds it, or,
 * when the document leaves the subset, the span `yaml` is to parse instead:
 * from its `---` line (or the text's start) to where the next one starts.
 */
export type FastDocument = { root: YAMLMap | YAMLSeq | Scalar } | { from: number; to: number };

/**
 * fastParseAll document by document: a document outside the subset (a
 * multi-line double-quoted scalar with escapes in one ConfigMap of a 2 MB
 * bundle) leaves only itself to `yaml`, not the whole text. Undefined when the
 * text as a whole is outside it (tabs, CR, controls; markers other than a bare
 * `---`, `...`, directives): its documents cannot be told apart here.
 */
export function fastParseEach(text: string, inert?: Inert): FastDocument[] | undefined {
  return eachDocument(text, inert, false);
}

function eachDocument(text: string, inert: Inert | undefined, stopAtFirst: boolean): FastDocument[] | undefined {
  if (UNSUPPORTED_TEXT.test(text)) return undefined;
  let ranges: { from: number; to: number; marker?: Line }[];
  try {
    ranges = documentRanges(text);
  } catch (e) {
    if (e === OUTSIDE) return undefined;
    throw e;
  }
  const docs: FastDocument[] = [];
  for (const range of ranges) {
    const root = documentAt(text, range, inert);
    if (root) docs.push({ root });
    else if (stopAtFirst) return undefined;
    else docs.push({ from: range.marker?.start ?? range.from, to: range.to });
  }
  return docs;
}

/** One document's root, or undefined when it is outside the subset. */
function documentAt(text: string, { from, to, marker }: { from: number; to: number; marker?: Line }, inert: Inert | undefined): YAMLMap | YAMLSeq | Scalar | undefined {
  try {
    const cur: Cursor = { text, lines: [], i: 0, scan: from, first: from, stop: to, inert };
    const first = lineAt(cur, 0);
    if (!first) {
      const empty = newScalar(null);
      empty.source = '';
      empty.type = Scalar.PLAIN;
      empty.range = [marker!.end, marker!.end, marker!.end];
      return empty;
    }
    if (first.col !== 0) return undefined;
    const root = rootNode(cur, first);
    if (lineAt(cur, cur.i)) return undefined;
    return root;
  } catch (e) {
    if (e === OUTSIDE) return undefined;
    throw e;
  }
}

/**
 * Where each document's lines lie, and the `---` line that starts it. A bare
 * `---` line starts a document; the lines before the first one are a document
 * only when they hold content. Other markers and directives (a line starting
 * `---` and more, `...` or `%`) leave the subset.
 */
function documentRanges(text: string): { from: number; to: number; marker?: Line }[] {
  if (OTHER_MARKER.test(text)) fail();
  const docs: { from: number; to: number; marker?: Line }[] = [];
  let from = 0;
  let marker: Line | undefined;
  MARKER.lastIndex = 0;
  while (MARKER.test(text)) {
    const start = MARKER.lastIndex - 3;
    if (marker || hasContent(text, from, start)) docs.push({ from, to: start, marker });
    marker = { start, end: start + 3, col: 0 };
    from = lineEnd(text, start + 3);
    MARKER.lastIndex = from;
  }
  if (marker || hasContent(text, from, text.length)) docs.push({ from, to: text.length, marker });
  return docs;
}

const MARKER = /^---$/gm;
const OTHER_MARKER = /^(?:---.|\.\.\.|%)/m;

function hasContent(text: string, from: number, to: number): boolean {
  CONTENT.lastIndex = from;
  return CONTENT.test(text) && CONTENT.lastIndex - 1 < to;
}

/** A block collection, or a flow collection alone on its line (`{}` values files). */
function rootNode(cur: Cursor, first: Line): YAMLMap | YAMLSeq {
  const c = cur.text[first.start];
  if (c !== '{' && c !== '[') return blockNode(cur, 0, first.start, Skim.Root);
  const node = inlineValue(cur.text, first.start, first.end) as YAMLMap | YAMLSeq;
  cur.i++;
  return node;
}

/** A block map or sequence starting at `pos` (on the current line) with its items at column `col`. */
function blockNode(cur: Cursor, col: number, pos: number, skim: Skim): YAMLMap | YAMLSeq {
  if (isSeqItem(cur.text, pos, lineAt(cur, cur.i)!.end)) return blockSeq(cur, col, pos, skim === Skim.Root ? Skim.Below : skim);
  return blockMap(cur, col, pos, skim);
}

function isSeqItem(text: string, pos: number, end: number): boolean {
  return text[pos] === '-' && (pos + 1 === end || text[pos + 1] === ' ');
}

function blockMap(cur: Cursor, col: number, firstPos: number, skim: Skim): YAMLMap {
  const map = newMap(false);
  map.range = [firstPos, firstPos, firstPos];
  let pos = firstPos;
  for (;;) {
    const line = lineAt(cur, cur.i)!;
    const key = keyAt(cur.text, pos, line.end);
    const pair = newPair(key, null);
    map.items.push(pair);
    const below = skim !== Skim.Root ? skim : key.value === 'global' || key.value === 'images' ? Skim.Never : Skim.Below;
    pair.value = pairValue(cur, col, key.range![1] + 1, line, below, skim === Skim.Below);
    const next = lineAt(cur, cur.i);
    if (!next || next.col < col) break;
    if (next.col > col) fail();
    pos = next.start + next.col;
  }
  map.range[1] = map.range[2] = lastEnd(map);
  return map;
}

function blockSeq(cur: Cursor, col: number, firstPos: number, skim: Skim): YAMLSeq {
  const seq = newSeq(false);
  seq.range = [firstPos, firstPos, firstPos];
  let pos = firstPos;
  for (;;) {
    const line = lineAt(cur, cur.i)!;
    seq.items.push(seqItem(cur, col, pos, line, skim));
    const next = lineAt(cur, cur.i);
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

/** `key:` at pos: a plain key that resolves to a string, or a one-line quoted key, followed by `:` and a space or the line end. */
function keyAt(text: string, pos: number, end: number): Scalar {
  const c = text[pos];
  if (c === '"' || c === "'") {
    const key = quoted(text, pos, end);
    const p = key.range![1];
    if (p - pos > MAX_KEY || text[p] !== ':' || (p + 1 < end && text[p + 1] !== ' ')) fail();
    return key;
  }
  KEY.lastIndex = pos;
  const m = KEY.exec(text);
  if (!m) return fail();
  const p = Math.min(pos + m[0].length, end);
  if (p - pos > MAX_KEY || text[p] !== ':' || (p + 1 < end && text[p + 1] !== ' ')) fail();
  const source = text.slice(pos, p);
  const key = plainScalar(source, pos, p, p);
  if (typeof key.value !== 'string') fail();
  return key;
}

/** A plain key of the subset (KEY_CLASS as a sticky regex: native scanning is much faster cold). */
const KEY = /[A-Za-z0-9_][A-Za-z0-9_./-]*/y;

/** Character classes by code (ASCII): 1 starts a key, 2 continues one. */
const KEY_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  KEY_CLASS[c] = alnum ? 3 : c === 45 || c === 46 || c === 47 ? 2 : 0; // - . / continue a key
}

function isKeyChar(c: number): boolean {
  return c < 128 && (KEY_CLASS[c]! & 2) !== 0;
}

/**
 * The value after `key:` (pos is just after the colon); advances the cursor
 * past it. `skim` is for the maps below; `leave` says this value may be left out.
 */
function pairValue(cur: Cursor, keyCol: number, pos: number, line: Line, skim: Skim, leave: boolean): Node {
  const { text } = cur;
  let q = pos;
  while (q < line.end && text.charCodeAt(q) === 32) q++;
  cur.i++;
  if (q === line.end || text[q] === '#') {
    const next = lineAt(cur, cur.i);
    const compact = next !== undefined && next.col === keyCol && isSeqItem(text, next.start + next.col, next.end);
    if (next && (next.col > keyCol || compact) && leave && cur.inert) {
      const left = leftOut(cur, keyCol, compact, next);
      if (left) return left;
    }
    if (next && next.col > keyCol) return blockNode(cur, next.col, next.start + next.col, skim);
    if (compact) return blockSeq(cur, keyCol, next.start + next.col, skim);
    const empty = newScalar(null);
    empty.source = '';
    empty.type = Scalar.PLAIN;
    empty.range = [q, q, q];
    return empty;
  }
  return valueOnLine(cur, keyCol, q, line);
}

function seqItem(cur: Cursor, dashCol: number, dash: number, line: Line, skim: Skim): Node {
  const { text } = cur;
  let q = dash + 1;
  while (q < line.end && text.charCodeAt(q) === 32) q++;
  if (q === line.end || text[q] === '#') {
    cur.i++;
    const next = lineAt(cur, cur.i);
    if (next && next.col > dashCol) return blockNode(cur, next.col, next.start + next.col, skim);
    return fail();
  }
  if (isSeqItem(text, q, line.end)) fail();
  if (looksLikeKey(text, q, line.end)) return blockMap(cur, q - line.start, q, skim);
  cur.i++;
  return valueOnLine(cur, dashCol, q, line);
}

/**
 * The value of the key at `keyCol` (a block map or sequence from `next` on;
 * `compact`: a sequence at the key's column) as an empty node of the same kind
 * and range, when no offset the caller reads lies in its text and the skim
 * takes it; the cursor then reads on after it. Else undefined, nothing moved.
 */
function leftOut(cur: Cursor, keyCol: number, compact: boolean, next: Line): YAMLMap | YAMLSeq | undefined {
  const { text } = cur;
  if (keyCol === 0) return undefined; // never the case below the root map; regionEnd needs a column to its left
  const read = cur.inert!.next(next.start);
  if (!compact && read < cur.stop && holdsRead(cur, next.start, keyCol, read)) return undefined;
  const stop = inertEnd(text, next.start, keyCol, compact, cur.stop, read);
  if (stop === -1) return undefined;
  const r: Reader = { text, stop, start: next.start, p: next.start + next.col, end: next.end, col: next.col };
  const pos = r.p;
  let end: number;
  try {
    end = compact ? skimSeq(r, keyCol) : skimBlock(r, next.col);
  } catch (e) {
    if (e !== NOT_SKIMMED && e !== OUTSIDE) throw e;
    return undefined;
  }
  if (r.col !== -1) return undefined; // a line left over inside: the parse fails there
  cur.lines.length = cur.i;
  cur.scan = stop;
  const node = compact || isSeqItem(text, pos, next.end) ? newSeq(false) : newMap(false);
  node.range = [pos, end, end];
  return node;
}

/**
 * Where the value of a key at `keyCol` ends — at the first content line at or
 * left of the key (for a compact sequence: left of it, or at it and not an
 * item), or at the document's end (`stop`) — when that is before `read` (the
 * first offset the caller reads); else -1. A native search, and only up to
 * `read`: the values around a read offset are looked at once per level.
 */
function inertEnd(text: string, from: number, keyCol: number, compact: boolean, stop: number, read: number): number {
  const key = compact ? -keyCol - 1 : keyCol;
  let re = REGION_ENDS.get(key);
  if (!re) {
    // `\n` rather than `^` with the m flag: Irregexp then scans for the newline natively
    re = compact ? new RegExp(`\\n(?: {0,${keyCol - 1}}[^ \\n#]| {${keyCol}}(?!-(?: |\\n|$))[^ \\n#])`) : new RegExp(`\\n {0,${keyCol}}[^ \\n#]`);
    REGION_ENDS.set(key, re);
  }
  // from the newline before `from` (a value starts on a line after its key); the
  // line holding `read` ends the value if it starts there (at or left of the key)
  const limit = Math.min(read + 1, stop);
  const found = re.exec(text.slice(from - 1, limit));
  if (!found) return read < stop ? -1 : stop;
  return from + found.index;
}

const REGION_ENDS = new Map<number, RegExp>();

/**
 * The content lines that end the values around a read offset, nearest first:
 * the offset's own line, then each nearest earlier line indented less than the
 * one before it (the keys enclosing it). Read backwards on demand.
 */
interface Enclosing {
  read: number;
  starts: number[];
  cols: number[];
  /** No earlier line is indented less than the last one. */
  done: boolean;
}

/**
 * Whether the value of a key at `keyCol` whose lines start at `from` holds
 * `read`: no content line in [from, read] is at or left of the key. Answered
 * from the lines enclosing `read` (a few per level), not by searching the value
 * forward once per level: the values around a read offset are most of the
 * candidates a large manifest offers. A pre-check only (inertEnd decides).
 */
function holdsRead(cur: Cursor, from: number, keyCol: number, read: number): boolean {
  const { text } = cur;
  let e = cur.enclosing;
  if (!e || e.read !== read) {
    const start = text.lastIndexOf('\n', read - 1) + 1;
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const p = skipIndent(text, start, end);
    // a comment line ends nothing: the chain starts at the nearest content line before it
    e = cur.enclosing = { read, starts: [start], cols: [p < end && text[p] !== '#' ? p - start : Infinity], done: false };
  }
  for (let k = 0; ; k++) {
    if (k === e.starts.length && !enclosingLine(text, e, cur.first)) return true;
    if (e.cols[k]! <= keyCol) return e.starts[k]! < from;
    if (e.starts[k]! < from) return true;
  }
}

/** Adds the nearest content line before the last one that is indented less (growing windows of native search); false when there is none. */
function enclosingLine(text: string, e: Enclosing, first: number): boolean {
  if (e.done) return false;
  const x = e.starts[e.starts.length - 1]!;
  const c = e.cols[e.cols.length - 1]!;
  if (c === 0 || x <= first) {
    e.done = true;
    return false;
  }
  const re = indentRegex(LESS_THAN, Math.min(c, 1 << 20), () => (c === Infinity ? /\n *[^ \n#]/g : new RegExp(`\\n {0,${c - 1}}[^ \\n#]`, 'g')));
  for (let w = 1024; ; w *= 4) {
    const lo = Math.max(first, x - w);
    // line starts in [lo, x): their newlines are in [lo - 1, x - 1)
    const window = text.slice(Math.max(lo - 1, 0), x);
    const shift = Math.max(lo - 1, 0);
    let last = -1;
    let spaces = 0;
    re.lastIndex = 0;
    for (let m = re.exec(window); m !== null; m = re.exec(window)) {
      last = shift + m.index + 1;
      spaces = m[0].length - 2;
    }
    if (last === -1 && lo === 0) {
      // the text's first line has no newline before it
      const end = text.indexOf('\n');
      const p = skipIndent(text, 0, end === -1 ? text.length : end);
      if (p < x && text[p] !== '#' && text[p] !== '\n' && p < c) {
        last = 0;
        spaces = p;
      }
    }
    if (last !== -1) {
      e.starts.push(last);
      e.cols.push(spaces);
      return true;
    }
    if (lo === first) {
      e.done = true;
      return false;
    }
  }
}

const LESS_THAN = new Map<number, RegExp>();

/** The content line a skim is at (`col` -1: none left before `stop`). */
interface Reader {
  text: string;
  stop: number;
  start: number;
  /** Its first non-space character. */
  p: number;
  end: number;
  col: number;
}

/** Moves the reader to the first content line at or after `from` (a line start). */
function readLine(r: Reader, from: number): void {
  CONTENT.lastIndex = from;
  const p = from < r.stop && CONTENT.test(r.text) ? CONTENT.lastIndex - 1 : r.stop;
  if (p >= r.stop) {
    r.start = r.p = r.end = r.stop;
    r.col = -1;
    return;
  }
  r.start = r.text.lastIndexOf('\n', p) + 1;
  r.p = p;
  r.col = p - r.start;
  const e = r.text.indexOf('\n', p);
  r.end = e === -1 ? r.text.length : e;
}

/** blockNode's checks without its nodes, from the reader's line: the node's end (range[2]); throws when it is not taken. */
function skimBlock(r: Reader, col: number): number {
  return isSeqItem(r.text, r.p, r.end) ? skimSeq(r, col) : skimMap(r, col);
}

/** blockMap's checks; a quoted or repeated key is not skimmed (the map is then built, and the walk reports the repeat). */
function skimMap(r: Reader, col: number): number {
  const { text } = r;
  const keys: string[] = [];
  let seen: Set<string> | undefined;
  for (;;) {
    const pos = r.p;
    KEY.lastIndex = pos;
    if (!KEY.test(text)) throw NOT_SKIMMED;
    const p = Math.min(KEY.lastIndex, r.end);
    if (p - pos > MAX_KEY || text.charCodeAt(p) !== 58 || (p + 1 < r.end && text.charCodeAt(p + 1) !== 32)) throw NOT_SKIMMED;
    const key = text.slice(pos, p);
    if (!isStringKey(key)) throw NOT_SKIMMED;
    if (seen) {
      if (seen.has(key)) throw NOT_SKIMMED;
      seen.add(key);
    } else {
      if (keys.includes(key)) throw NOT_SKIMMED;
      keys.push(key);
      if (keys.length > SMALL_MAP) seen = new Set(keys);
    }
    const end = skimPairValue(r, col, p + 1);
    if (r.col < col) return end;
    if (r.col > col) throw NOT_SKIMMED;
  }
}

/** Up to this many keys, a skimmed map looks for a repeated key in a list; above, in a set. */
const SMALL_MAP = 16;

/** Plain keys seen to resolve to a string, or not (a CRD repeats a few hundred keys thousands of times). */
const STRING_KEYS = new Map<string, boolean>();

/** A plain key that yaml resolves to a string (keyAt's test, without the node). */
function isStringKey(key: string): boolean {
  if (!mayBeNonString(key)) return true;
  let known = STRING_KEYS.get(key);
  if (known === undefined) {
    known = !CORE_TAGS.some((tag) => tag.test!.test(key));
    if (STRING_KEYS.size > 4096) STRING_KEYS.clear();
    STRING_KEYS.set(key, known);
  }
  return known;
}

/** pairValue's checks (pos is just after the colon). */
function skimPairValue(r: Reader, keyCol: number, pos: number): number {
  const { text } = r;
  const q = skipSpaces(text, pos, r.end);
  if (q === r.end || text.charCodeAt(q) === 35) {
    readLine(r, r.end + 1);
    if (r.col > keyCol) return skimBlock(r, r.col);
    if (r.col === keyCol && isSeqItem(text, r.p, r.end)) return skimSeq(r, keyCol);
    return q;
  }
  return skimValue(r, keyCol, q);
}

/** blockSeq's checks. */
function skimSeq(r: Reader, col: number): number {
  for (;;) {
    const end = skimSeqItem(r, col);
    if (r.col < col) return end;
    if (r.col > col) throw NOT_SKIMMED;
    if (!isSeqItem(r.text, r.p, r.end)) return end;
  }
}

/** seqItem's checks. */
function skimSeqItem(r: Reader, dashCol: number): number {
  const { text } = r;
  const q = skipSpaces(text, r.p + 1, r.end);
  if (q === r.end || text.charCodeAt(q) === 35) {
    readLine(r, r.end + 1);
    if (r.col > dashCol) return skimBlock(r, r.col);
    throw NOT_SKIMMED;
  }
  if (isSeqItem(text, q, r.end)) throw NOT_SKIMMED;
  if (looksLikeKey(text, q, r.end)) {
    r.p = q;
    r.col = q - r.start;
    return skimMap(r, r.col);
  }
  return skimValue(r, dashCol, q);
}

/** A one-line plain scalar's text up to a ` #`, a `: ` or a final `:` (blockPlain's checks). */
const PLAIN_TEXT = /(?:[^ :\n]| (?!#)|:(?! |\n|$))*/y;
/** A continuation line of a folded plain scalar (foldedPlain's checks): no `#`, no `: `, no final `:`. */
const FOLDED_TEXT = /(?:[^#:\n]|:(?! |\n|$))*(?:\n|$)/y;

/**
 * valueOnLine's checks for the value at q: the reader ends at the next content
 * line. One-line quoted and flow values are built (one node each); a quoted
 * scalar over several lines is not skimmed.
 */
function skimValue(r: Reader, ownerCol: number, q: number): number {
  const { text } = r;
  const c = text[q]!;
  if (c === '|' || c === '>') return skimBlockScalar(r, ownerCol, q);
  if (c === '"' || c === "'" || c === '[' || c === '{') {
    if ((c === '"' || c === "'") && closingQuote(text, c, q + 1, r.end) === -1) return skimQuoted(r, ownerCol, q);
    const end = inlineValue(text, q, r.end).range![2];
    readLine(r, r.end + 1);
    if (r.col > ownerCol) throw NOT_SKIMMED;
    return end;
  }
  checkPlainStart(text, q, r.end);
  PLAIN_TEXT.lastIndex = q;
  PLAIN_TEXT.test(text);
  const stop = PLAIN_TEXT.lastIndex;
  if (stop < r.end && text.charCodeAt(stop) === 58) throw NOT_SKIMMED;
  const comment = stop < r.end;
  let end = lineEnd(text, r.end);
  let prevEnd = r.end;
  readLine(r, r.end + 1);
  if (r.col <= ownerCol) return end;
  if (comment) throw NOT_SKIMMED;
  while (r.col > ownerCol) {
    for (let p = prevEnd; p < r.start; p++) {
      const b = text.charCodeAt(p);
      if (b !== 10 && b !== 32) throw NOT_SKIMMED;
    }
    FOLDED_TEXT.lastIndex = r.p;
    if (!FOLDED_TEXT.test(text)) throw NOT_SKIMMED;
    end = lineEnd(text, r.end);
    prevEnd = r.end;
    readLine(r, r.end + 1);
  }
  return end;
}

/**
 * blockScalar's checks: the header alone on its line, a first content line
 * indented past the owner right below (leading blank lines are not skimmed),
 * the text up to the first line indented less (native searches), no line
 * indented past it in a folded scalar. The end is after the last line longer
 * than the indentation.
 */
function skimBlockScalar(r: Reader, ownerCol: number, q: number): number {
  const { text } = r;
  const literal = text[q] === '|';
  let h = q + 1;
  if (text[h] === '-') h++;
  if (skipSpaces(text, h, r.end) !== r.end) throw NOT_SKIMMED;
  const body = lineEnd(text, r.end);
  NOT_BLANK.lastIndex = body;
  if (!NOT_BLANK.test(text)) throw NOT_SKIMMED;
  const first = NOT_BLANK.lastIndex - 1;
  const s = text.lastIndexOf('\n', first) + 1;
  const indent = first - s;
  if (s !== body || indent <= ownerCol) throw NOT_SKIMMED;
  const term = indentRegex(LESS_INDENTED, indent, () => new RegExp(`^ {0,${indent - 1}}[^ \\n]`, 'gm'));
  term.lastIndex = s;
  const t = term.test(text) ? text.lastIndexOf('\n', term.lastIndex - 1) + 1 : text.length;
  if (!literal) {
    const more = indentRegex(MORE_INDENTED, indent, () => new RegExp(`^ {${indent + 1}}`, 'gm'));
    more.lastIndex = s;
    if (more.test(text) && more.lastIndex - indent - 1 < t) throw NOT_SKIMMED;
  }
  let at = t;
  for (;;) {
    const le = at === text.length && text.charCodeAt(at - 1) !== 10 ? at : at - 1;
    const ls = text.lastIndexOf('\n', le - 1) + 1;
    if (le - ls > indent) {
      readLine(r, lineEnd(text, le));
      return lineEnd(text, le);
    }
    at = ls;
  }
}

/**
 * multiLineQuoted's checks for a single-quoted scalar whose quote closes on a
 * later line (CRD descriptions): printable ASCII, every line indented past the
 * owner, only a comment after the closing quote, and no more-indented line
 * after it. One over several lines in double quotes is not skimmed.
 */
function skimQuoted(r: Reader, ownerCol: number, q: number): number {
  const { text } = r;
  if (text[q] !== "'" || !printable(text, q + 1, r.end)) throw NOT_SKIMMED;
  let start = r.end + 1;
  for (;;) {
    if (start >= text.length) throw NOT_SKIMMED;
    let lineStop = text.indexOf('\n', start);
    if (lineStop === -1) lineStop = text.length;
    const p = skipIndent(text, start, lineStop);
    if (p === lineStop) {
      start = lineStop + 1;
      continue;
    }
    if (p - start <= ownerCol) throw NOT_SKIMMED;
    SINGLE_QUOTED_END.lastIndex = p;
    if (!SINGLE_QUOTED_END.test(text)) {
      if (!printable(text, p, lineStop)) throw NOT_SKIMMED;
      start = lineStop + 1;
      continue;
    }
    const close = SINGLE_QUOTED_END.lastIndex - 1;
    if (!printable(text, p, close)) throw NOT_SKIMMED;
    restOfLine(text, close + 1, lineStop);
    const end = lineEnd(text, lineStop);
    readLine(r, end);
    if (r.col > ownerCol) throw NOT_SKIMMED;
    return end;
  }
}

/** Up to the quote that closes a single-quoted scalar on this line (`''` is a quote inside). */
const SINGLE_QUOTED_END = /(?:[^'\n]|'')*'(?!')/y;
const PRINTABLE = /[\x20-\x7e]*/y;

function printable(text: string, from: number, to: number): boolean {
  PRINTABLE.lastIndex = from;
  PRINTABLE.test(text);
  return PRINTABLE.lastIndex >= to;
}

const NOT_BLANK = /[^ \n]/g;
const LESS_INDENTED = new Map<number, RegExp>();
const MORE_INDENTED = new Map<number, RegExp>();

function indentRegex(cache: Map<number, RegExp>, indent: number, make: () => RegExp): RegExp {
  let re = cache.get(indent);
  if (!re) cache.set(indent, (re = make()));
  return re;
}

/** `word:` or `"quoted":` followed by a space or the line end (a compact map inside a sequence item). */
function looksLikeKey(text: string, pos: number, end: number): boolean {
  let p = pos;
  const c = text[pos];
  if (c === '"' || c === "'") {
    const close = closingQuote(text, c, pos + 1, end);
    if (close === -1) return false;
    p = close + 1;
  } else {
    while (p < end && isKeyChar(text.charCodeAt(p))) p++;
    if (p === pos) return false;
  }
  return text[p] === ':' && (p + 1 === end || text[p + 1] === ' ');
}

/**
 * The value starting at q on `line` (the cursor already past it): a one-line
 * value, or a plain scalar continued on the following lines indented past its
 * owner, folded as YAML folds them.
 */
function valueOnLine(cur: Cursor, ownerCol: number, q: number, line: Line): Node {
  const c = cur.text[q];
  if (c === '|' || c === '>') return blockScalar(cur, ownerCol, q, line);
  if ((c === '"' || c === "'") && closingQuote(cur.text, c, q + 1, line.end) === -1) return multiLineQuoted(cur, ownerCol, q, line);
  const value = inlineValue(cur.text, q, line.end);
  const next = lineAt(cur, cur.i);
  if (!next || next.col <= ownerCol) return value;
  if (!isScalar(value) || value.type !== Scalar.PLAIN || value.range![2] !== lineEnd(cur.text, line.end) || commentAfter(cur.text, value.range![1], line.end)) fail();
  return foldedPlain(cur, ownerCol, value as Scalar, line);
}

/**
 * A block scalar: `|`, `|-`, `>` or `>-` alone after its key or dash, its
 * content lines right below, all indented past the owner (folded ones all at
 * the same indentation). Blank and whitespace-only lines inside are empty lines
 * (in a literal scalar, the spaces past its indentation are content), leading
 * ones too when none is indented past the first content line. Keep chomping,
 * indentation indicators, a comment on the header, an empty scalar over blank
 * lines and a more-indented whitespace line in a folded scalar leave the subset.
 */
function blockScalar(cur: Cursor, ownerCol: number, q: number, line: Line): Scalar {
  const { text } = cur;
  const literal = text[q] === '|';
  let h = q + 1;
  const strip = text[h] === '-';
  if (strip) h++;
  if (skipSpaces(text, h, line.end) !== line.end) fail();
  const parts: string[] = [];
  let indent = -1;
  /** The most spaces on a leading whitespace-only line (must not exceed the indentation found later). */
  let leadingSpaces = -1;
  let start = line.end + 1;
  let end = lineEnd(text, line.end); // after the last content line
  while (start < text.length) {
    let lineStop = text.indexOf('\n', start);
    if (lineStop === -1) lineStop = text.length;
    const p = skipIndent(text, start, lineStop);
    if (p === lineStop) {
      const spaces = p - start;
      if (indent === -1) leadingSpaces = Math.max(leadingSpaces, spaces);
      else if (spaces > indent) {
        if (!literal) fail();
        parts.push(text.slice(start + indent, lineStop));
        end = lineEnd(text, lineStop);
        start = lineStop + 1;
        continue;
      }
      parts.push('');
    } else {
      const col = p - start;
      if (indent === -1) {
        if (col <= ownerCol) break;
        if (leadingSpaces > col) fail();
        indent = col;
      }
      if (col < indent) break;
      if (!literal && col > indent) fail();
      parts.push(text.slice(start + indent, lineStop));
      end = lineEnd(text, lineStop);
    }
    start = lineStop + 1;
  }
  if (indent === -1 && parts.length > 0) fail(); // only blank lines: yaml's range then covers them
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  let value = '';
  if (literal) value = parts.join('\n');
  else {
    let blanks = 0;
    let leading = 0;
    for (const part of parts) {
      if (part === '') {
        blanks++;
        continue;
      }
      if (value !== '') value += blanks === 0 ? ' ' : '\n'.repeat(blanks);
      else leading = blanks;
      value += part;
      blanks = 0;
    }
    value = '\n'.repeat(leading) + value;
  }
  if (!strip && value !== '') value += '\n';
  skipTo(cur, end);
  const scalar = newScalar(value);
  scalar.range = [q, end, end];
  scalar.source = value;
  scalar.type = literal ? Scalar.BLOCK_LITERAL : Scalar.BLOCK_FOLDED;
  return scalar;
}

/**
 * A quoted scalar whose closing quote is on a later line, folded as YAML folds
 * flow scalars; every continuation line indented past the owner, no escapes.
 */
function multiLineQuoted(cur: Cursor, ownerCol: number, q: number, line: Line): Scalar {
  const { text } = cur;
  const quote = text[q]!;
  const segment = (from: number, to: number): string => {
    const part = text.slice(from, to);
    if (!PRINTABLE_ASCII.test(part) || (quote === '"' && (part.includes('"') || part.includes('\\')))) fail();
    return quote === "'" ? part.replaceAll("''", "'") : part;
  };
  let value = segment(q + 1, line.end).replace(/ +$/, '');
  let blanks = 0;
  let start = line.end + 1;
  for (;;) {
    if (start >= text.length) fail();
    let lineStop = text.indexOf('\n', start);
    if (lineStop === -1) lineStop = text.length;
    const p = skipIndent(text, start, lineStop);
    if (p === lineStop) {
      blanks++;
      start = lineStop + 1;
      continue;
    }
    if (p - start <= ownerCol) fail();
    const close = closingQuote(text, quote, p, lineStop);
    const fold = blanks === 0 ? ' ' : '\n'.repeat(blanks);
    blanks = 0;
    if (close === -1) {
      value += fold + segment(p, lineStop).replace(/ +$/, '');
      start = lineStop + 1;
      continue;
    }
    value += fold + segment(p, close);
    restOfLine(text, close + 1, lineStop);
    skipTo(cur, lineEnd(text, lineStop));
    const next = lineAt(cur, cur.i);
    if (next && next.col > ownerCol) fail();
    const scalar = newScalar(value);
    scalar.range = [q, close + 1, lineEnd(text, lineStop)];
    scalar.source = value;
    scalar.type = quote === '"' ? Scalar.QUOTE_DOUBLE : Scalar.QUOTE_SINGLE;
    return scalar;
  }
}

function commentAfter(text: string, from: number, end: number): boolean {
  const p = skipSpaces(text, from, end);
  return p < end;
}

/** A plain scalar over several lines: line breaks fold to a space, n blank lines to n newlines. */
function foldedPlain(cur: Cursor, ownerCol: number, first: Scalar, firstLine: Line): Scalar {
  const { text } = cur;
  let source = first.source!;
  let prevEnd = firstLine.end;
  let valueEnd = first.range![1];
  for (;;) {
    const next = lineAt(cur, cur.i);
    if (!next || next.col <= ownerCol) break;
    // only blank lines between (a comment line ends the scalar: what follows would be an error)
    let breaks = 0;
    for (let p = prevEnd; p < next.start; p++) {
      const c = text.charCodeAt(p);
      if (c === 10) breaks++;
      else if (c !== 32) fail();
    }
    const q = next.start + next.col; // any first character continues the scalar (yaml reads `- x`, `[x]`, `"x"` there as text)
    // a `#` or a `: ` (or a final `:`) on a continuation line leaves the subset (native searches: CRD descriptions are long)
    const part = text.slice(q, next.end);
    if (part.includes('#') || part.includes(': ') || part.charCodeAt(part.length - 1) === 58) fail();
    let e = next.end;
    while (e > q && text.charCodeAt(e - 1) === 32) e--;
    source += breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
    source += text.slice(q, e);
    valueEnd = e;
    prevEnd = next.end;
    cur.i++;
  }
  return plainScalar(source, first.range![0], valueEnd, lineEnd(text, prevEnd));
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
  // Up to ` #`; `: ` or a final `:` before it (a key, not a value) leaves the subset.
  const line = text.slice(q, end);
  const hash = line.indexOf(' #');
  const stop = hash === -1 ? line.length : hash;
  const colon = line.indexOf(': ');
  if ((colon !== -1 && colon < stop) || (hash === -1 && line.charCodeAt(line.length - 1) === 58)) fail();
  let e = q + stop;
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

/** Where the quote opened before `from` closes on this line (`''` in single quotes is a quote, `\\"` in double quotes is not a closing one), or -1. */
function closingQuote(text: string, quote: string, from: number, end: number): number {
  for (let p = from; p < end; p++) {
    const c = text[p];
    if (c === '\\' && quote === '"') {
      p++;
      continue;
    }
    if (c !== quote) continue;
    if (quote === "'" && text[p + 1] === "'") {
      p++;
      continue;
    }
    return p;
  }
  return -1;
}

/** The escapes of a double-quoted scalar, as yaml decodes them (a tab after `\\` never gets here: tabs leave the subset). */
const ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0', a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029', ' ': ' ', '"': '"', '/': '/', '\\': '\\',
};
const HEX_LENGTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };
const HEX = /^[0-9a-fA-F]+$/;

/** The value of a one-line double-quoted scalar's inside: escapes decoded; an invalid escape leaves the subset. */
function decodeDoubleQuoted(raw: string): string {
  let at = raw.indexOf('\\');
  if (at === -1) return raw;
  let out = '';
  let from = 0;
  while (at !== -1) {
    out += raw.slice(from, at);
    const c = raw[at + 1]!;
    const simple = ESCAPES[c];
    if (simple !== undefined) {
      out += simple;
      from = at + 2;
    } else {
      const length = HEX_LENGTH[c];
      const digits = length === undefined ? '' : raw.slice(at + 2, at + 2 + length);
      if (length === undefined || digits.length !== length || !HEX.test(digits)) fail();
      const code = parseInt(digits, 16);
      if (code > 0x10ffff) fail();
      out += String.fromCodePoint(code);
      from = at + 2 + length!;
    }
    at = raw.indexOf('\\', from);
  }
  return out + raw.slice(from);
}

/** A quoted scalar on one line: `''` in single quotes is a quote; escapes in double quotes are decoded. */
function quoted(text: string, q: number, end: number): Scalar {
  const quote = text[q]!;
  const close = closingQuote(text, quote, q + 1, end);
  if (close === -1) fail();
  const raw = text.slice(q + 1, close);
  const value = quote === "'" ? raw.replaceAll("''", "'") : decodeDoubleQuoted(raw);
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
