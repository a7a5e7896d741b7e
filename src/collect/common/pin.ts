/**
 * Shared helpers for every collector: offset → line/column, and building a Pin
 * (form, first-party flag, position of the first span) from a parsed ref.
 */
import { formOf, type Pin, type Problem, type Shape, type Span } from '../../model/index.js';
import type { ImageRef } from '../../reference/index.js';
import type { CollectContext } from '../types.js';

/** Maps offsets in `text` to 1-based line and column (UTF-16 code units). */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    // native searches: a 1 MB manifest has ~16k lines and a million characters
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) this.starts.push(nl + 1);
  }
  /** 1-based line and column of `offset`. */
  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (this.starts[lo] as number) + 1 };
  }
  /** Offset of the first character of 1-based `line`. */
  lineStart(line: number): number {
    return this.starts[line - 1] ?? 0;
  }
}

export interface PinParts {
  shape: Shape;
  spans: Span[];
  raw: string;
  ref: ImageRef;
  keyPath?: string;
  document?: number;
  scraped?: boolean;
}

/** Build a Pin; line/column come from the first span. */
export function buildPin(parts: PinParts, lines: LineIndex, ctx: CollectContext): Pin {
  const first = parts.spans[0];
  const { line, column } = lines.position(first ? first.start : 0);
  const pin: Pin = {
    file: ctx.file,
    line,
    column,
    shape: parts.shape,
    spans: parts.spans,
    raw: parts.raw,
    ref: parts.ref,
    form: formOf(parts.ref),
    firstParty: ctx.isFirstParty(parts.ref.name),
  };
  if (parts.keyPath !== undefined) pin.keyPath = parts.keyPath;
  if (parts.document !== undefined) pin.document = parts.document;
  if (parts.scraped) pin.scraped = true;
  return pin;
}

/** Build a Problem located at `offset`. */
export function problemAt(ctx: CollectContext, lines: LineIndex, offset: number, code: string, reason: string): Problem {
  const { line, column } = lines.position(offset);
  return { file: ctx.file, line, column, code, reason };
}

/** The error message of anything thrown, for Problem reasons. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
