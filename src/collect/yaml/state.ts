/**
 * The per-file state the YAML collector threads through its recognisers, and the
 * helpers that turn a yaml `Scalar` node into located text (exact offsets).
 */
import { isAlias, isScalar, type Document, type Node, type Scalar } from 'yaml';
import type { Pin, Problem, Span } from '../../model/index.js';
import type { ImageRef } from '../../reference/index.js';
import { buildPin, LineIndex, problemAt } from '../common/pin.js';
import type { CollectContext, LeftOut } from '../types.js';

export interface YamlState {
  text: string;
  ctx: CollectContext;
  lines: LineIndex;
  pins: Pin[];
  problems: Problem[];
  /** What was read and is neither a pin nor a problem (templates); CollectResult.leftOut. */
  leftOut: LeftOut[];
  document: number;
  /** The document's root node. */
  root: unknown;
  /** The parsed document, to resolve aliases; absent for the fast parse (which has no aliases). */
  doc: Document | undefined;
  /** Pins made from a node, so an alias of that node can be recorded on them (kept only when `doc` is set). */
  pinsByNode: Map<Node, Pin[]>;
  /** Nodes already read by a recogniser (a split map's fields, an OCI pair). */
  consumed: Set<unknown>;
  /**
   * The chart-wide registry of a Helm values document (`global.imageRegistry`,
   * `global.image.registry`, `global.registry.address`) when set: it applies to
   * every image map of the document (collectGlobal sets it).
   */
  globalRegistry?: Located;
}

/** A scalar's value as text and where that text sits in the file. */
export interface Located {
  node: Scalar;
  value: string;
  start: number;
  end: number;
}

/** The scalar (following an alias to its anchor) or undefined for collections. */
export function scalarOf(state: YamlState, node: unknown): Scalar | undefined {
  if (isAlias(node)) {
    const target = state.doc ? node.resolve(state.doc) : undefined;
    return isScalar(target) ? target : undefined;
  }
  return isScalar(node) ? node : undefined;
}

/**
 * The scalar's value as the text a human typed (numbers keep their source form).
 * A one-line block scalar (`image: |` then the ref) loses the newline that `|`
 * keeps at its end: the ref is the line, as with `|-`.
 */
export function scalarText(s: Scalar): string | undefined {
  if (typeof s.value === 'string') {
    if ((s.type === 'BLOCK_LITERAL' || s.type === 'BLOCK_FOLDED') && s.value.endsWith('\n')) {
      const line = s.value.replace(/\n+$/, '');
      if (!line.includes('\n')) return line;
    }
    return s.value;
  }
  if (s.value === null || s.value === undefined) return undefined;
  return typeof s.source === 'string' ? s.source : String(s.value);
}

/** Offset of `sub` inside the scalar's source text, or -1 (escapes, folding). */
export function locateIn(state: YamlState, s: Scalar, sub: string, from = 0): number {
  const range = s.range;
  if (!range || sub.length === 0) return -1;
  // The first occurrence at or after range[0] + from; it counts only if it ends inside the scalar.
  const at = state.text.indexOf(sub, range[0] + from);
  return at === -1 || at + sub.length > range[1] ? -1 : at;
}

/** Locate the whole value of a scalar; undefined when it is empty, null or cannot be found. */
export function locateScalar(state: YamlState, s: Scalar): Located | undefined {
  const value = scalarText(s);
  if (value === undefined || value === '') return undefined;
  const start = locateIn(state, s, value);
  return start === -1 ? undefined : { node: s, value, start, end: start + value.length };
}

/** Offset where a node starts (for problems). */
export function nodeStart(node: unknown): number {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? range[0] : 0;
}

export function addPin(
  state: YamlState,
  parts: { shape: Pin['shape']; spans: Span[]; raw: string; ref: ImageRef; keyPath: string },
  from: Node,
  options: { keepSpanOrder?: boolean } = {},
): Pin {
  // Spans are in file order, so the pin's line is its first stored field; a
  // recogniser may keep its own order (yaml-global puts the shared registry last).
  const spans = options.keepSpanOrder || isSorted(parts.spans) ? parts.spans.slice() : parts.spans.slice().sort((a, b) => a.start - b.start);
  const pin = buildPin({ shape: parts.shape, spans, raw: parts.raw, ref: parts.ref, keyPath: parts.keyPath, document: state.document }, state.lines, state.ctx);
  state.pins.push(pin);
  if (!state.doc) return pin; // no aliases without a parsed document (the fast parse): nothing to record
  const list = state.pinsByNode.get(from);
  if (list) list.push(pin);
  else state.pinsByNode.set(from, [pin]);
  return pin;
}

function isSorted(spans: readonly Span[]): boolean {
  for (let i = 1; i < spans.length; i++) if (spans[i]!.start < spans[i - 1]!.start) return false;
  return true;
}

export function addProblem(state: YamlState, node: unknown, code: string, reason: string): void {
  state.problems.push(problemAt(state.ctx, state.lines, nodeStart(node), code, reason));
}

/** `a.b[0].c` from a key path. */
export function joinPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}

/** A key names an image: `image`, `sidecarImage`, `redisBackupClientImage`, `kubectl_image`. */
export function isImageKey(key: string | number | undefined): boolean {
  return typeof key === 'string' && /image$/i.test(key);
}
