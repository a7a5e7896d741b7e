/** Pieces every overlay format shares: the summary line and how one differing line reads. */
import type { DriftLine, OverlayReport, OverlayStatus, OverlaySummary } from '../overlay/index.js';

/** `overlaid=N same=N skipped=N drift=N failed=N missing-in-artifact=N new-in-artifact=N` */
export function overlaySummaryLine(s: OverlaySummary): string {
  return `overlaid=${s.overlaid} same=${s.same} skipped=${s.skipped} drift=${s.drift} failed=${s.failed} missing-in-artifact=${s.missingInArtifact} new-in-artifact=${s.newInArtifact}`;
}

/** Statuses in the order reports list them (most actionable first). */
export const STATUS_ORDER: OverlayStatus[] = ['drift', 'failed', 'overlaid', 'skipped', 'missing-in-artifact', 'new-in-artifact', 'same'];

export function filesWith(report: OverlayReport, status: OverlayStatus) {
  return report.files.filter((f) => f.status === status);
}

/** Where a differing line is: `line 12`, `line 12 (artifact line 13)`, `artifact line 5`. */
export function lineWhere(l: DriftLine): string {
  if (l.line === undefined) return `artifact line ${l.artifactLine ?? '?'}`;
  if (l.artifactLine !== undefined && l.artifactLine !== l.line) return `line ${l.line} (artifact line ${l.artifactLine})`;
  return `line ${l.line}`;
}

/** `committed → artifact`, each shown by `show` (a code span in text and markdown). */
export function lineChange(l: DriftLine, show: (s: string) => string): string {
  if (l.committed !== undefined && l.artifact !== undefined) return `${show(l.committed.trim())} → ${show(l.artifact.trim())}`;
  if (l.committed !== undefined) return `${show(l.committed.trim())} (only in the checkout)`;
  return `${show((l.artifact ?? '').trim())} (only in the artifact)`;
}

/** `line 12 \`replicas: 2\` → \`replicas: 3\`: no image reference on this line` */
export function describeLine(l: DriftLine, show: (s: string) => string = codeSpan): string {
  return `${lineWhere(l)} ${lineChange(l, show)}: ${l.reason}`;
}

/** A markdown/text code span that survives backticks inside. */
export function codeSpan(s: string): string {
  if (s === '') return '(blank)';
  const runs = s.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${s}${pad}${fence}`;
}

export function headline(report: OverlayReport): string {
  const at = report.at ? ` (artifact root = ${report.at}/)` : '';
  const mode = [report.dryRun ? 'dry run: nothing written' : '', report.ignoreComments ? 'comment-only differences ignored' : ''].filter(Boolean);
  return `overlay ${report.from} onto ${report.root}${at}${mode.length ? ` [${mode.join('; ')}]` : ''}`;
}
