/**
 * `pinwatch triage --format github`: one `::error` workflow annotation per skew
 * line, on the source file and line the message comes from (a file of the
 * repository, so GitHub can show it), then the summary line. The job summary
 * (markdown) is appended to GITHUB_STEP_SUMMARY by the command, not here.
 */
import type { TriageReport } from '../triage/index.js';
import { escapeData, escapeProperty } from './overlay-github.js';
import { terminalSafe } from './sanitize.js';
import { triageSummaryLine } from './triage-common.js';

export function formatTriageGithub(report: TriageReport): string {
  const out: string[] = [];
  for (const l of report.lines) {
    if (l.verdict !== 'skew') continue;
    const m = l.matches[0];
    const props = [`title=${escapeProperty(`version skew (${l.source}:${l.lineNumber})`)}`];
    if (m?.atHead) props.unshift(`file=${escapeProperty(m.file)}`, `line=${m.line}`);
    out.push(`::error ${props.join(',')}::${escapeData(`${l.text.trim()}\n${l.explanation}`)}`);
  }
  out.push(`pinwatch triage: ${triageSummaryLine(report)}`);
  return terminalSafe(`${out.join('\n')}\n`);
}
