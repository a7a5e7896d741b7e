/**
 * `overlay --format github`: workflow-command annotations (`::warning file=…,line=…::`)
 * on every drifted line and failed file, then the summary line. The job summary
 * (markdown) is appended to GITHUB_STEP_SUMMARY by the command, not here.
 */
import type { DriftLine, OverlayReport } from '../overlay/index.js';
import { describeLine, overlaySummaryLine } from './overlay-common.js';
import { terminalSafe } from './sanitize.js';

/** Annotations per drifted file (GitHub shows only a few per step); the job summary lists every line. */
export const ANNOTATIONS_PER_FILE = 10;

/** Escape the message part of a workflow command. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escape a property value (file, title) of a workflow command. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function annotation(level: 'warning' | 'error', props: Record<string, string | number | undefined>, message: string): string {
  const p = Object.entries(props)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(',');
  return `::${level} ${p}::${escapeData(message)}`;
}

/** The checkout line an annotation points at: the line itself, or where an artifact-only line would go. */
function anchor(l: DriftLine): number | undefined {
  return l.line ?? l.nearLine;
}

/**
 * One annotation per drifted or failed file first (GitHub shows only the first
 * few per step, so every file gets named), then one per differing line.
 */
export function formatOverlayGithub(report: OverlayReport): string {
  if (report.noArtifact) return terminalSafe(`::notice::${escapeData(report.noArtifact)}\n${overlaySummaryLine(report.summary)}`);
  const files: string[] = [];
  const lines: string[] = [];
  const title = 'overlay drift: committed refs kept';
  for (const f of report.files) {
    if (f.status === 'failed') files.push(annotation('warning', { file: f.file, title: 'overlay failed: committed refs kept' }, f.reason ?? 'failed'));
    if (f.status !== 'drift') continue;
    const first = f.lines?.[0];
    files.push(annotation('warning', { file: f.file, line: first ? anchor(first) : undefined, title }, `${f.file}: ${f.reason ?? 'drift'}`));
    for (const p of f.pinDrift ?? []) lines.push(annotation('warning', { file: f.file, title }, `pins do not correspond: ${p}`));
    const all = f.lines ?? [];
    for (const l of all.slice(0, ANNOTATIONS_PER_FILE)) lines.push(annotation('warning', { file: f.file, line: anchor(l), title }, describeLine(l, (s) => `\`${s}\``)));
    if (all.length > ANNOTATIONS_PER_FILE) {
      lines.push(annotation('warning', { file: f.file, title }, `${all.length - ANNOTATIONS_PER_FILE} more non-ref lines differ; the job summary lists them all`));
    }
  }
  return terminalSafe([...files, ...lines, `Overlay current-main images: ${overlaySummaryLine(report.summary)}`].join('\n'));
}
