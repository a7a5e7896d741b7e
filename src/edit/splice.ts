/**
 * Span edits on text: replace [start, end) ranges with new text, all at once,
 * refusing overlaps. Offsets index the original string; nothing else moves.
 */
import { PinwatchError } from '../errors.js';

export interface SpanEdit {
  start: number;
  end: number;
  text: string;
}

/** Sort by start and refuse overlapping edits (two fields cannot claim the same bytes). */
export function sortedEdits(edits: readonly SpanEdit[], file = ''): SpanEdit[] {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const cur = sorted[i]!;
    if (cur.start < prev.end) {
      throw new PinwatchError('edit-overlap', `two edits overlap at offsets ${prev.start}-${prev.end} and ${cur.start}-${cur.end}`, { file });
    }
  }
  return sorted;
}

/** Apply non-overlapping edits to `text`. */
export function applySpans(text: string, edits: readonly SpanEdit[], file = ''): string {
  const sorted = sortedEdits(edits, file);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at || e.end > text.length || e.start > e.end) {
      throw new PinwatchError('edit-out-of-range', `edit ${e.start}-${e.end} is outside the text (${text.length} characters)`, { file });
    }
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/** Where `offset` of the original text lands after `edits`. */
export function shiftOffset(offset: number, edits: readonly SpanEdit[]): number {
  let delta = 0;
  for (const e of edits) if (e.end <= offset) delta += e.text.length - (e.end - e.start);
  return offset + delta;
}
