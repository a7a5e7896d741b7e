/** `promote`, `mirror` and `compare --format json`: version 1 and the result, rewrites without file bodies (diffs included). */
import type { CompareResult, MirrorResult, PromoteResult, RewriteResult } from '../release/index.js';

function rewriteJson(r: RewriteResult | undefined): unknown {
  if (!r) return undefined;
  const { files, ...rest } = r;
  return { ...rest, files: files.map((f) => ({ file: f.file, diff: f.diff })) };
}

export function formatPromoteJson(r: PromoteResult): string {
  const { rewrite, ...rest } = r;
  return `${JSON.stringify({ version: 1, ...rest, ...(rewrite ? { rewrite: rewriteJson(rewrite) } : {}) }, null, 2)}\n`;
}

export function formatMirrorJson(r: MirrorResult): string {
  const { rewrite, ...rest } = r;
  return `${JSON.stringify({ version: 1, ...rest, ...(rewrite ? { rewrite: rewriteJson(rewrite) } : {}) }, null, 2)}\n`;
}

export function formatCompareJson(r: CompareResult): string {
  return `${JSON.stringify({ version: 1, ...r }, null, 2)}\n`;
}
