/** `pinwatch repin` as text: what moved, what could not, what was left behind; the diff on --dry-run. */
import type { BatchRepinResult, RepinResult } from '../repin/index.js';
import { terminalSafe } from './sanitize.js';

export function formatRepinText(r: RepinResult, opts: { diff?: boolean } = {}): string {
  const out: string[] = [];
  const to = `${r.target.repository}${r.target.tag ? `:${r.target.tag}` : ''}@${r.target.digest}`;
  const how = r.target.resolvedBy === 'registry' ? ' (digest resolved through the registry)' : '';
  out.push(`${r.dryRun ? 'Would repin' : 'Repin'} ${r.repository} → ${to}${how}`);
  if (r.oldDigests.length) out.push(`  from: ${r.oldDigests.join(', ')}`);
  if (r.forward) out.push(`  --only-forward: ${r.forward.ok ? 'ok' : r.forward.decided ? 'refused' : 'refused (cannot decide)'}: ${r.forward.reason}`);
  if (r.changes.length === 0 && r.problems.every((p) => !p.blocking) && (!r.forward || r.forward.ok)) {
    out.push('', `Nothing to change: every pin of ${r.repository} already names ${r.target.digest}.`);
  }
  if (r.changes.length) {
    out.push('', `${r.changes.length} pin(s) ${r.dryRun ? 'to rewrite' : r.written ? 'rewritten' : 'planned (nothing written)'} in ${new Set(r.changes.map((c) => c.file)).size} file(s):`);
    for (const c of r.changes) {
      const lock = c.lockstep ? `  [lockstep: ${c.lockstep.producer}]` : '';
      out.push(`  ${c.file}:${c.line}${c.keyPath ? ` ${c.keyPath}` : ''} (${c.shape})${lock}`, `    - ${c.from}`, `    + ${c.to}`);
    }
  }
  if (r.problems.length) {
    out.push('', 'Problems:');
    for (const p of r.problems) out.push(`  ${p.blocking ? 'error' : 'note'} [${p.code}] ${p.reason}`);
    if (r.problems.some((p) => p.blocking)) out.push('  Nothing was written.');
  }
  if (r.leftovers.length) {
    out.push('', `Left behind: ${r.leftovers.length} place(s) still name ${r.oldDigests.length > 1 ? 'an old digest' : 'the old digest'}:`);
    for (const l of r.leftovers) out.push(`  ${l.file}:${l.line} (${l.kind === 'pin' ? 'pin' : 'text outside the scanned pins'}): ${l.text}`);
  } else if (r.written) {
    out.push('', 'Rescan: no pin or text in the tree names the old digest.');
  } else if (r.dryRun && r.files.length) {
    out.push('', 'Wide search: after the planned edits no file in the tree would name the old digest.');
  }
  if (opts.diff && r.files.length) out.push('', ...r.files.map((f) => f.diff.trimEnd()));
  return terminalSafe(`${out.join('\n')}\n`);
}

/** `repin --from-build-metadata …`: one section per built image, then what was not repinned and why. */
export function formatBatchRepinText(r: BatchRepinResult): string {
  const out: string[] = [`Build metadata: ${r.files.join(', ')}: ${r.images.length} image(s)`, ''];
  for (const res of r.results) out.push(formatRepinText(res, { diff: res.dryRun }).trimEnd(), '');
  if (r.skipped.length) {
    out.push(`Not repinned (${r.skipped.length}):`);
    for (const s of r.skipped) out.push(`  ${s.repository ?? s.source ?? '?'}${s.repository && s.source ? ` (${s.source})` : ''}: ${s.reason}`);
  }
  const moved = r.results.filter((x) => x.changes.length > 0).length;
  const blocked = r.results.filter((x) => x.problems.some((p) => p.blocking)).length;
  out.push(`${moved} of ${r.images.length} image(s) ${r.results.some((x) => x.dryRun) ? 'would move' : 'moved'}; ${blocked} blocked by a problem; ${r.skipped.length} not repinned`);
  return terminalSafe(`${out.join('\n')}\n`);
}
