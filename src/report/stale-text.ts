/** `pinwatch stale` as a text table plus the unshipped commits of each stale image. */
import type { StaleReport } from '../stale/index.js';
import { ageText, builtFromText, commitLine, failedBeforeAnswer, imageLabels, summaryCounts, unshippedCount } from './stale-common.js';
import { plainField, terminalSafe } from './sanitize.js';
import { listSome, pushAll } from '../util/list.js';
import { finish, paint, PLAIN, table, type Colourer, type TextOptions } from './style.js';

const STATUS_TONE = { stale: 'warning', current: 'good', unknown: 'note' } as const;

/** Colour the status word of table rows and image headings. */
export const staleColourer: Colourer = (line, style) => {
  if (line.startsWith('warning: ')) return paint(style, 'warning', line);
  const row = /^(\S+\s+)(stale|current|unknown)(\s|$)/.exec(line);
  if (row) return `${row[1]}${paint(style, STATUS_TONE[row[2] as keyof typeof STATUS_TONE], row[2]!)}${line.slice(row[1]!.length + row[2]!.length)}`;
  const head = /^(\S+ \(.*\): )(stale|unknown|current)$/.exec(line);
  if (head) return `${paint(style, 'bold', head[1]!)}${paint(style, STATUS_TONE[head[2] as keyof typeof STATUS_TONE], head[2]!)}`;
  return line;
};

/** The shallow clone's fix, said once in the warning at the top, is not repeated in every image's reason. */
const SHALLOW_FIX = /: fetch full history \(git fetch --unshallow, or fetch-depth: 0\)/g;

/**
 * The summary line first, then what limits every image's answer (once), the
 * table, and each image that is not current; `quiet` stops after the warnings,
 * `verbose` details current images too.
 */
export function formatStaleText(report: StaleReport & { notes?: string[] }, options: TextOptions = {}): string {
  const style = options.style ?? PLAIN;
  const lines = staleTextLines(report, options);
  return finish(terminalSafe(`${lines.join('\n')}\n`), style, staleColourer, (l) => (l.startsWith('warning: ') || l.startsWith('note: ') ? 4 : undefined));
}

/** The plain lines of the stale text (check embeds them). */
export function staleTextLines(report: StaleReport & { notes?: string[] }, options: TextOptions = {}): string[] {
  const style = options.style ?? PLAIN;
  const detail = options.detail ?? 'normal';
  const current = report.images.filter((i) => i.status === 'current').length;
  const lines: string[] = [summaryCounts(report.images)];
  // what limits the answer for every image comes first, once
  pushAll(lines, report.warnings.map((w) => `warning: ${w}`));
  if (detail === 'quiet') return lines;
  lines.push('');
  if (report.images.length === 0) return [...lines, ...(report.notes ?? []).map((n) => `note: ${n}`)];
  const labels = imageLabels(report.images);
  const rows = [['IMAGE', 'STATUS', 'BUILT FROM', 'UNSHIPPED', 'OLDEST'], ...report.images.map((i, n) => [labels[n]!, i.status, builtFromText(i), unshippedCount(i), ageText(i)])];
  pushAll(lines, table(rows, style)).push('');
  for (const [n, img] of report.images.entries()) {
    if (img.status === 'current' && detail !== 'verbose') continue;
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
  if (current > 0 && detail !== 'verbose') lines.push(`${current} current image(s) are in the table only (--verbose details them)`);
  while (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
