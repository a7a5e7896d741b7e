/** `pinwatch explain IMAGE --format json`. */
import type { Explanation } from '../explain/index.js';
import { staleJson } from './stale-json.js';

export function formatExplainJson(e: Explanation): string {
  const stale = staleJson({ head: '', shallow: false, images: e.stale, warnings: [], gitProcesses: 0 }).images;
  const doc = {
    version: 1,
    image: e.image,
    repository: e.repository,
    declared: e.declared ?? null,
    pins: e.pins.map(({ pin, producers }) => ({ file: pin.file, line: pin.line, keyPath: pin.keyPath ?? null, raw: pin.raw, shape: pin.shape, form: pin.form, producers })),
    recipes: e.recipes,
    recipeProblems: e.recipeProblems.map((p) => ({ file: p.file ?? null, line: p.line ?? null, code: p.code, reason: p.reason })),
    missingInputsReason: e.missingInputsReason ?? null,
    digests: stale,
    notes: e.notes,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
