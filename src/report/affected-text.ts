/** `pinwatch affected --format text`: which images to rebuild and why. */
import type { AffectedResult } from '../affected/index.js';
import { terminalSafe } from './sanitize.js';

export function formatAffectedText(result: AffectedResult & { notes?: string[] }): string {
  const out = [`${result.changed} path(s) changed since the merge base ${result.mergeBase.slice(0, 10)} of ${result.base.slice(0, 10)} and HEAD ${result.head.slice(0, 10)}`];
  out.push(`${result.affected.length} image(s) affected${result.affected.length ? ':' : ''}`);
  for (const a of result.affected) {
    out.push(`  ${a.image} (${a.repository})`);
    for (const r of a.reasons.slice(0, 10)) out.push(`    ${r.path}${r.path !== '*' ? `  ∈ ${r.input}` : `  ${r.input}`}`);
    if (a.reasons.length > 10) out.push(`    … and ${a.reasons.length - 10} more path(s)`);
  }
  if (result.unknown.length) out.push(`${result.unknown.length} image(s) with unknown build inputs: ${result.unknown.map((u) => u.image).join(', ')}`);
  for (const n of result.notes ?? []) out.push(`note: ${n}`);
  return terminalSafe(`${out.join('\n')}\n`);
}
