/**
 * Plain-text findings for a terminal: one line per finding
 * (`file:line:col: severity [rule] message`), the fix and related places
 * indented below, suppressed findings counted but not listed, a summary line.
 */
import type { Finding } from '../model/index.js';
import { locationText, summaryLine, type FindingsReportOptions } from './findings-common.js';
import { terminalSafe } from './sanitize.js';

function block(f: Finding): string[] {
  const lines = [`${locationText(f)}: ${f.severity} [${f.rule}] ${f.message}`];
  for (const r of f.related ?? []) lines.push(`    see ${locationText(r)}${r.message ? `: ${r.message}` : ''}`);
  if (f.hint) lines.push(`    fix: ${f.hint}`);
  return lines;
}

export function formatFindingsText(findings: readonly Finding[], options: FindingsReportOptions = {}): string {
  const active = findings.filter((f) => !f.suppressed);
  const out: string[] = [];
  if (options.title) out.push(options.title, '');
  for (const f of active) out.push(...block(f));
  if (active.length) out.push('');
  out.push(summaryLine(findings));
  for (const n of options.notes ?? []) out.push(n);
  return terminalSafe(`${out.join('\n')}\n`);
}
