/**
 * Span consistency check, shared by the collector tests (and usable by anyone
 * who rewrites pins): each pin's spans must cut exactly its stored fields out of
 * the text, and its line/column must be the first span's position.
 */
import type { Pin } from '../../src/model/index.js';
import { LineIndex } from '../../src/collect/common/pin.js';

/** Human-readable mismatches; empty when every pin's spans are exact. */
export function spanMismatches(text: string, pins: readonly Pin[]): string[] {
  const lines = new LineIndex(text);
  const out: string[] = [];
  for (const pin of pins) {
    const where = `${pin.file}:${pin.line} ${pin.keyPath ?? ''}`;
    const slice = (field: string) => pin.spans.filter((s) => s.field === field).map((s) => text.slice(s.start, s.end));
    const refSpan = slice('ref');
    const rebuilt =
      refSpan.length > 0
        ? refSpan.join('')
        : `${[...slice('registry'), ...slice('repository')].join('/')}${slice('tag').map((t) => `:${t}`).join('')}${slice('digest').map((d) => `@${d}`).join('')}`;
    const expected = pin.raw.startsWith('oci://') ? pin.raw.slice(6) : pin.raw;
    if (rebuilt !== expected) out.push(`${where}: spans give ${JSON.stringify(rebuilt)}, raw is ${JSON.stringify(pin.raw)}`);
    const first = pin.spans[0];
    if (first) {
      const pos = lines.position(first.start);
      if (pos.line !== pin.line || pos.column !== pin.column) out.push(`${where}: line/column ${pin.line}:${pin.column} but first span at ${pos.line}:${pos.column}`);
    }
    for (const s of pin.spans) {
      if (s.start >= s.end || s.end > text.length) out.push(`${where}: empty or out-of-range span ${s.field} ${s.start}-${s.end}`);
    }
  }
  return out;
}
