/** `overlay --format text`: one line per file (same files only with listSame), drift lines, patches, the summary line last. */
import type { OverlayFileResult, OverlayReport } from '../overlay/index.js';
import { describeLine, filesWith, headline, overlaySummaryLine, STATUS_ORDER } from './overlay-common.js';
import { terminalSafe } from './sanitize.js';

/** Differing lines shown per file; JSON and markdown show them all. */
export const TEXT_LINE_LIMIT = 40;

export interface OverlayTextOptions {
  /** Name every byte-identical file too. */
  listSame?: boolean;
}

function fileLine(f: OverlayFileResult): string[] {
  const pins = f.status === 'overlaid' && f.pins !== undefined ? ` (${f.pins} pin${f.pins === 1 ? '' : 's'}${f.method === 'line-fallback' ? ', method: line-fallback' : ''})` : '';
  const method = f.status === 'drift' && f.method === 'line-fallback' ? ' [method: line-fallback]' : '';
  const head = `${f.status.padEnd(9)} ${f.file}${pins}${method}${f.reason ? `: ${f.reason}` : ''}`;
  const out = [head];
  for (const p of f.status === 'drift' ? f.pinDrift ?? [] : []) out.push(`            pin: ${p}`);
  const lines = f.lines ?? [];
  for (const l of lines.slice(0, TEXT_LINE_LIMIT)) out.push(`            ${f.status === 'overlaid' ? 'ignored: ' : ''}${describeLine(l)}`);
  if (lines.length > TEXT_LINE_LIMIT) out.push(`            … ${lines.length - TEXT_LINE_LIMIT} more differing lines (--format json lists them all)`);
  return out;
}

export function formatOverlayText(report: OverlayReport, options: OverlayTextOptions = {}): string {
  if (report.noArtifact) return terminalSafe(`${report.noArtifact}\n${overlaySummaryLine(report.summary)}`);
  const lines = [headline(report)];
  for (const status of STATUS_ORDER) {
    if (status === 'same' && !options.listSame) continue;
    for (const f of filesWith(report, status)) lines.push(...fileLine(f));
  }
  if (!options.listSame && report.summary.same > 0) lines.push(`same      ${report.summary.same} byte-identical file${report.summary.same === 1 ? '' : 's'} (--list-same names them)`);
  for (const n of report.notes) lines.push(`note      ${n.file}: ${n.reason}`);
  for (const e of report.excluded) lines.push(`excluded  ${e.count} × ${e.reason} (e.g. ${e.examples.join(', ')})`);
  const patches = report.files.filter((f) => f.patch);
  if (patches.length > 0) {
    lines.push('', `# dry run: what overlaying would change (${patches.length} file${patches.length === 1 ? '' : 's'})`);
    for (const f of patches) lines.push((f.patch as string).trimEnd());
    lines.push('');
  }
  lines.push(overlaySummaryLine(report.summary));
  return terminalSafe(lines.join('\n'));
}
