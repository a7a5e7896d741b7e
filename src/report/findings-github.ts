/**
 * GitHub Actions workflow commands: one `::error|warning|notice file=…,line=…,col=…,title=…::message`
 * annotation per active finding, escaped per the workflow-command rules (data:
 * `%` `\r` `\n`; properties also `:` and `,`), then a plain summary line.
 * Suppressed findings are not annotated. The job summary is the Markdown format.
 *
 * GitHub shows at most 10 error, 10 warning and 10 notice annotations per step
 * and drops the rest unseen, so each kind is capped: the most important first
 * (stale images by fixes lacking, then by commits lacking; then by rule, file and
 * line), and when there are more, the tenth says how many more the summary lists.
 */
import type { Finding } from '../model/index.js';
import { summaryLine, type FindingsReportOptions } from './findings-common.js';
import { terminalSafe } from './sanitize.js';

/** Escape a command's message (data). */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escape a command property value (`file=`, `title=`). */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const COMMAND: Record<Finding['severity'], string> = { error: 'error', warning: 'warning', note: 'notice' };

export function githubAnnotation(f: Finding): string {
  const props: string[] = [];
  if (f.file) props.push(`file=${escapeProperty(f.file)}`);
  if (f.file && f.line) props.push(`line=${f.line}`);
  if (f.file && f.line && f.column) props.push(`col=${f.column}`);
  props.push(`title=${escapeProperty(`pinwatch ${f.rule}`)}`);
  const message = f.hint ? `${f.message}\nFix: ${f.hint}` : f.message;
  return `::${COMMAND[f.severity]} ${props.join(',')}::${escapeData(message)}`;
}

/** Annotations GitHub shows per step, per kind (error, warning, notice). */
export const ANNOTATION_LIMIT = 10;

const WORD: Record<Finding['severity'], string> = { error: 'error', warning: 'warning', note: 'note' };

/** How much a finding matters within its severity: a stale image lacking fixes first, then by commits lacking. */
function weight(f: Finding): [number, number, number] {
  const unshipped = (f.evidence as { unshipped?: { type?: string }[] } | undefined)?.unshipped;
  if (f.rule === 'stale-image' && Array.isArray(unshipped)) return [0, -unshipped.filter((u) => u.type === 'fix').length, -unshipped.length];
  return [1, 0, 0];
}

function byImportance(a: Finding, b: Finding): number {
  const wa = weight(a);
  const wb = weight(b);
  return wa[0] - wb[0] || wa[1] - wb[1] || wa[2] - wb[2] || a.rule.localeCompare(b.rule) || (a.file ?? '').localeCompare(b.file ?? '') || (a.line ?? 0) - (b.line ?? 0);
}

/** The annotations of one severity, the most important first, at most ANNOTATION_LIMIT (the last saying how many more). */
function capped(findings: readonly Finding[], severity: Finding['severity']): string[] {
  const all = findings.filter((f) => f.severity === severity).sort(byImportance);
  if (all.length <= ANNOTATION_LIMIT) return all.map(githubAnnotation);
  const shown = all.slice(0, ANNOTATION_LIMIT - 1).map(githubAnnotation);
  const more = all.length - shown.length;
  shown.push(`::${COMMAND[severity]} title=${escapeProperty('pinwatch: more in the summary')}::${escapeData(`${more} more ${WORD[severity]}${more === 1 ? '' : 's'} not annotated here (GitHub shows ${ANNOTATION_LIMIT} per step): the job summary and the report list them all`)}`);
  return shown;
}

export function formatFindingsGithub(findings: readonly Finding[], options: FindingsReportOptions = {}): string {
  const active = findings.filter((f) => !f.suppressed);
  const lines = (['error', 'warning', 'note'] as const).flatMap((s) => capped(active, s));
  lines.push(`${options.title ? `${options.title}: ` : ''}${summaryLine(findings)}`);
  return terminalSafe(`${lines.join('\n')}\n`);
}
