/**
 * Where a finding about one stored field belongs. A split map keeps registry,
 * repository, tag and digest on separate lines; a finding about the tag should
 * point at `tag:`, not at the map's first line. Needs the file's text (the span
 * offsets index it); without it the pin's own line stands.
 */
import type { RawFinding } from '../rules/index.js';

function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

export function locateField(raw: RawFinding, fileText: ((file: string) => string | undefined) | undefined): RawFinding {
  const pin = raw.pin;
  if (!raw.field || !pin || !fileText || pin.spans.length < 2) return raw;
  const span = pin.spans.find((s) => s.field === raw.field);
  if (!span || span === pin.spans[0]) return raw;
  const text = fileText(pin.file);
  if (text === undefined || span.end > text.length) return raw;
  return { ...raw, ...position(text, span.start) };
}
