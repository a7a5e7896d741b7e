/**
 * `promote`, `mirror` and `compare` as text: one line per image (or file) with
 * its action and reason, the rewrite's changes, problems and what remains, and a
 * closing verdict. Pure: results in, text out.
 */
import type { CompareResult, MirrorResult, PromoteResult, RewriteResult } from '../release/index.js';
import type { Problem } from '../model/index.js';
import { plainField, terminalSafe } from './sanitize.js';
import { pushAll } from '../util/list.js';

/** Remaining lines printed in text (pins first); JSON lists all. */
export const REMAINING_SHOWN = 40;

function problems(list: readonly Problem[]): string[] {
  return list.map((p) => `  ${p.blocking ? 'error' : 'note'} [${p.code}] ${plainField(p.reason)}`);
}

export function rewriteLines(r: RewriteResult | undefined, dryRun: boolean, diff: boolean): string[] {
  if (!r) return [];
  const out = ['', `rewrite: ${r.changes.length} pin(s) in ${r.files.length} file(s)${r.written ? ', written' : dryRun ? ' (dry run, nothing written)' : r.problems.some((p) => p.blocking) ? ', nothing written' : ''}`];
  for (const c of r.changes) out.push(`  ${c.file}:${c.line}${c.keyPath ? ` ${c.keyPath}` : ''} [${c.shape}] ${plainField(c.from)} -> ${plainField(c.to)}`);
  pushAll(out, problems(r.problems));
  if (r.remaining.length === 0) out.push('  postcondition: nothing in the tree still names the old value');
  const shown = r.remaining.filter((x) => x.kind === 'pin').concat(r.remaining.filter((x) => x.kind === 'text'));
  for (const x of shown.slice(0, REMAINING_SHOWN)) out.push(`  remaining ${x.kind} ${x.file}:${x.line}: ${plainField(x.text)}`);
  if (shown.length > REMAINING_SHOWN) out.push(`  … and ${shown.length - REMAINING_SHOWN} more remaining line(s) (--format json lists every one)`);
  if (diff) for (const f of r.files) out.push('', f.diff.trimEnd());
  return out;
}

export function formatPromoteText(r: PromoteResult, opts: { diff?: boolean } = {}): string {
  const out = [`promote ${r.tag}${r.dryRun ? ' (dry run)' : ''}: ${r.images.length} first-party repository(ies)`];
  for (const i of r.images) {
    out.push(`  ${i.action.padEnd(8)} ${i.repository}${i.digest ? `@${i.digest}` : ''}`, `           ${plainField(i.reason)}`);
    for (const m of i.moves ?? []) out.push(`           ${m.tag}: ${m.action}: ${plainField(m.reason)}`);
  }
  pushAll(out, problems(r.problems));
  pushAll(out, rewriteLines(r.rewrite, r.dryRun, opts.diff === true));
  out.push('', r.refused ? `refused: ${plainField(r.refused)}` : r.dryRun ? 'planned: nothing was written (dry run)' : 'done');
  return terminalSafe(`${out.join('\n')}\n`);
}

export function formatMirrorText(r: MirrorResult, opts: { diff?: boolean } = {}): string {
  const out = [`mirror ${r.from} -> ${r.to}${r.dryRun ? ' (dry run)' : ''}: ${r.images.length} image(s)`];
  for (const i of r.images) {
    out.push(`  ${i.action.padEnd(8)} ${i.repository}${i.digest ? `@${i.digest}` : ''} -> ${i.destination}${i.tags.length ? ` (tags ${i.tags.join(', ')})` : ''}`);
    if (i.reason) out.push(`           ${plainField(i.reason)}`);
    for (const s of i.stats?.skippedLayers ?? []) out.push(`           not copied: ${plainField(s)}`);
  }
  pushAll(out, problems(r.problems));
  pushAll(out, rewriteLines(r.rewrite, r.dryRun, opts.diff === true));
  out.push('', r.refused ? `refused: ${plainField(r.refused)}` : r.dryRun ? 'planned: nothing was copied or written (dry run)' : 'done');
  return terminalSafe(`${out.join('\n')}\n`);
}

export function formatCompareText(r: CompareResult, opts: { listSame?: boolean } = {}): string {
  if (r.noTree) return terminalSafe(`compare: ${plainField(r.noTree)}\n`);
  const out: string[] = [];
  for (const f of r.files) {
    if (f.status === 'same' && !opts.listSame) continue;
    out.push(`${f.status.padEnd(9)} ${f.file}${f.reason ? `: ${plainField(f.reason)}` : ''}`);
    for (const ref of f.refs) out.push(`  ${ref.keyPath}: ${plainField(ref.from)} -> ${plainField(ref.to)}`);
    for (const d of f.drift) out.push(`  drift ${plainField(d)}`);
  }
  const s = r.summary;
  out.push(`compare with ${r.from}: ${s.same} same, ${s['tags-only']} tags-only, ${s.digests} digests, ${s.drift} drift, ${s.missing} missing, ${s.new} new, ${s.failed} failed`);
  return terminalSafe(`${out.join('\n')}\n`);
}
