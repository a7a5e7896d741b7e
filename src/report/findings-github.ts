/**
 * GitHub Actions workflow commands: one `::error|warning|notice file=…,line=…,col=…,title=…::message`
 * annotation per active finding, escaped per the workflow-command rules (data:
 * `%` `\r` `\n`; properties also `:` and `,`), then a plain summary line.
 * Suppressed findings are not annotated. The job summary is the Markdown format.
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

export function formatFindingsGithub(findings: readonly Finding[], options: FindingsReportOptions = {}): string {
  const lines = findings.filter((f) => !f.suppressed).map(githubAnnotation);
  lines.push(`${options.title ? `${options.title}: ` : ''}${summaryLine(findings)}`);
  return terminalSafe(`${lines.join('\n')}\n`);
}
