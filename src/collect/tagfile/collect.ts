/**
 * Tag files (`images/<name>.tag`): the whole file is one ref, surrounding
 * whitespace ignored. Empty or invalid content is a Problem, never dropped.
 */
import { parseReference } from '../../reference/index.js';
import { buildPin, LineIndex, messageOf, problemAt } from '../common/pin.js';
import type { CollectContext, CollectResult } from '../types.js';

export function collectTagFile(text: string, ctx: CollectContext): CollectResult {
  const lines = new LineIndex(text);
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const lead = text.slice(bom).search(/\S/);
  if (lead === -1) {
    return { pins: [], problems: [{ file: ctx.file, line: 1, column: 1, code: 'empty-tag-file', reason: 'the tag file is empty; expected one image reference like ghcr.io/acme/app:v1@sha256:<64 hex>' }] };
  }
  const start = bom + lead;
  const end = start + text.slice(start).trimEnd().length;
  const raw = text.slice(start, end);
  if (/\s/.test(raw)) {
    return { pins: [], problems: [problemAt(ctx, lines, start, 'invalid-ref', `a tag file holds exactly one image reference; saw ${JSON.stringify(raw)}`)] };
  }
  try {
    const ref = parseReference(raw);
    return { pins: [buildPin({ shape: 'tag-file', spans: [{ field: 'ref', start, end }], raw, ref }, lines, ctx)], problems: [] };
  } catch (e) {
    return { pins: [], problems: [problemAt(ctx, lines, start, 'invalid-ref', messageOf(e))] };
  }
}
