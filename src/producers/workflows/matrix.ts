/**
 * `strategy.matrix` expanded as GitHub Actions does: the product of the base
 * keys (first key outermost), minus `exclude:` entries (partial matches), then
 * each `include:` entry added to every original combination whose original
 * values it does not contradict (overwriting only values an earlier include
 * added), or appended as a combination of its own when it fits none.
 */
import type { Value } from './expressions.js';

export type Matrix = { known: true; combinations: Record<string, Value>[] } | { known: false; reason: string };

const EXPRESSION = /\$\{\{/;

export function expandMatrix(matrix: Value | undefined): Matrix | undefined {
  if (matrix === undefined || matrix === null) return undefined;
  if (typeof matrix === 'string' && EXPRESSION.test(matrix)) return { known: false, reason: `the matrix is computed at run time (${matrix.trim()})` };
  if (typeof matrix !== 'object' || Array.isArray(matrix)) return { known: false, reason: 'strategy.matrix is not a mapping' };
  const base: [string, Value[]][] = [];
  for (const [k, v] of Object.entries(matrix)) {
    if (k === 'include' || k === 'exclude') continue;
    if (typeof v === 'string' && EXPRESSION.test(v)) return { known: false, reason: `matrix.${k} is computed at run time (${v.trim()})` };
    if (!Array.isArray(v)) return { known: false, reason: `matrix.${k} is not a list` };
    base.push([k, v]);
  }
  const list = (key: 'include' | 'exclude'): Record<string, Value>[] | string => {
    const v = matrix[key];
    if (v === undefined || v === null) return [];
    if (typeof v === 'string') return `matrix ${key} is computed at run time (${v.trim()})`;
    if (!Array.isArray(v) || v.some((e) => e === null || typeof e !== 'object' || Array.isArray(e))) return `matrix ${key} is not a list of mappings`;
    return v as Record<string, Value>[];
  };
  const include = list('include');
  const exclude = list('exclude');
  if (typeof include === 'string') return { known: false, reason: include };
  if (typeof exclude === 'string') return { known: false, reason: exclude };

  let combos: Record<string, Value>[] = base.length ? [{}] : [];
  for (const [k, values] of base) combos = combos.flatMap((c) => values.map((v) => ({ ...c, [k]: v })));
  combos = combos.filter((c) => !exclude.some((x) => Object.entries(x).every(([k, v]) => k in c && same(c[k]!, v))));
  const original = new Set(base.map(([k]) => k));
  const originals = combos.length;
  for (const entry of include) {
    let added = false;
    for (const c of combos.slice(0, originals)) {
      if (!Object.entries(entry).every(([k, v]) => !original.has(k) || same(c[k]!, v))) continue;
      for (const [k, v] of Object.entries(entry)) if (!original.has(k)) c[k] = v;
      added = true;
    }
    if (!added) combos.push({ ...entry });
  }
  return { known: true, combinations: combos };
}

function same(a: Value, b: Value): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
