/**
 * `overlay --format markdown`: a job summary. Names every drifted file with its
 * differing lines; lists failed, skipped, one-sided and overlaid files.
 */
import type { OverlayFileResult, OverlayReport } from '../overlay/index.js';
import { codeSpan, describeLine, filesWith, overlaySummaryLine } from './overlay-common.js';
import { terminalSafe } from './sanitize.js';

/** A drifted file with more differing lines than this shows them collapsed. */
const COLLAPSE_OVER = 15;

function section(title: string, files: OverlayFileResult[], body: (f: OverlayFileResult) => string[], open: boolean): string[] {
  if (files.length === 0) return [];
  const items = files.flatMap(body);
  if (open) return [`### ${title} (${files.length})`, '', ...items, ''];
  return [`<details><summary>${title} (${files.length})</summary>`, '', ...items, '', '</details>', ''];
}

function driftItem(f: OverlayFileResult): string[] {
  const method = f.method === 'line-fallback' ? ' (method: line-fallback)' : '';
  const out = [`- ${codeSpan(f.file)}${method}: ${f.reason ?? 'drift'}`];
  for (const p of f.pinDrift ?? []) out.push(`  - pin: ${p}`);
  const lines = (f.lines ?? []).map((l) => `  - ${describeLine(l)}`);
  if (lines.length <= COLLAPSE_OVER) return [...out, ...lines];
  return [...out, '', `  <details><summary>${lines.length} differing lines</summary>`, '', ...lines, '', '  </details>', ''];
}

const withReason = (f: OverlayFileResult) => [`- ${codeSpan(f.file)}${f.reason ? `: ${f.reason}` : ''}`];

export function formatOverlayMarkdown(report: OverlayReport): string {
  const s = report.summary;
  const title = `## pinwatch overlay${report.dryRun ? ' (dry run)' : ''}`;
  if (report.noArtifact) return terminalSafe([title, '', report.noArtifact, '', codeSpan(overlaySummaryLine(s)), ''].join('\n'));
  const table = [
    '| overlaid | same | skipped | drift | failed | missing in artifact | new in artifact |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${s.overlaid} | ${s.same} | ${s.skipped} | ${s.drift} | ${s.failed} | ${s.missingInArtifact} | ${s.newInArtifact} |`,
  ];
  const drift = filesWith(report, 'drift');
  const lead =
    drift.length > 0
      ? `**${drift.length} file${drift.length === 1 ? '' : 's'} kept committed refs** because something other than an image reference differs from the artifact:`
      : 'No drift: every differing file differed only in image references.';
  return terminalSafe([
    title,
    '',
    ...table,
    '',
    lead,
    '',
    ...section('Drift: committed refs kept', drift, driftItem, true),
    ...section('Failed', filesWith(report, 'failed'), withReason, true),
    ...section('Overlaid with current-main refs', filesWith(report, 'overlaid'), (f) => [`- ${codeSpan(f.file)}${f.method === 'line-fallback' ? ' (method: line-fallback)' : ''}`], false),
    ...section('Skipped', filesWith(report, 'skipped'), withReason, false),
    ...section('Missing in the artifact', filesWith(report, 'missing-in-artifact'), withReason, false),
    ...section('New in the artifact', filesWith(report, 'new-in-artifact'), withReason, false),
    ...(report.notes.length ? [`### Notes (${report.notes.length})`, '', ...report.notes.map((n) => `- ${codeSpan(n.file)}: ${n.reason}`), ''] : []),
    codeSpan(overlaySummaryLine(s)),
    '',
  ].join('\n'));
}
