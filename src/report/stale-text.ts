/** `pinwatch stale` as a text table plus the unshipped commits of each stale image. */
import type { StaleReport } from '../stale/index.js';
import { ageText, builtFromText, commitLine, failedBeforeAnswer, imageLabels, summaryCounts, unshippedCount } from './stale-common.js';
import { plainField, terminalSafe } from './sanitize.js';
import { listSome } from '../util/list.js';

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ').trimEnd());
}

/** The shallow clone's fix, said once in the warning at the top, is not repeated in every image's reason. */
const SHALLOW_FIX = /: fetch full history \(git fetch --unshallow, or fetch-depth: 0\)/g;

export function formatStaleText(report: StaleReport & { notes?: string[] }): string {
  // what limits the answer for every image comes first, once
  const lines: string[] = report.warnings.map((w) => `warning: ${w}`);
  if (lines.length > 0) lines.push('');
  const labels = imageLabels(report.images);
  const rows = [['IMAGE', 'STATUS', 'BUILT FROM', 'UNSHIPPED', 'OLDEST'], ...report.images.map((i, n) => [labels[n]!, i.status, builtFromText(i), unshippedCount(i), ageText(i)])];
  lines.push(...table(rows), '');
  for (const [n, img] of report.images.entries()) {
    if (img.status === 'current') continue;
    lines.push(`${labels[n]} (${img.repository}${img.digest ? `@${img.digest.slice(0, 19)}…` : ''}): ${img.status}`);
    if (img.builtFrom) {
      const step = img.provenance.find((s) => s.answered);
      lines.push(`  built from ${img.builtFrom.commit}${img.builtFrom.subject ? ` "${plainField(img.builtFrom.subject)}"` : ''}`);
      for (const failed of failedBeforeAnswer(img)) lines.push(`  ${failed.method}: no — ${failed.reason}`);
      if (step) lines.push(`  ${step.method}: ${step.reason}`);
    }
    if (img.reason) lines.push(`  reason: ${report.shallow ? img.reason.replace(SHALLOW_FIX, ' (see the shallow-clone warning at the top)') : img.reason}`);
    lines.push(`  pins: ${listSome(img.pins.map((p) => `${plainField(p.file)}:${p.line}`)) || '(none)'}`);
    if (img.unshipped.length > 0) {
      lines.push('  unshipped:');
      for (const u of img.unshipped) lines.push(`    ${commitLine(u)}`);
    }
    if (img.cherryPicked.length > 0) lines.push(`  already shipped as cherry-picks: ${img.cherryPicked.map((c) => `${c.commit.slice(0, 10)}=${c.equals.slice(0, 10)}`).join(', ')}`);
    lines.push('');
  }
  for (const n of report.notes ?? []) lines.push(`note: ${n}`);
  lines.push(summaryCounts(report.images));
  return terminalSafe(`${lines.join('\n')}\n`);
}
