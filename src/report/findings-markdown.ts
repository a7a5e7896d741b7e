/**
 * Markdown findings (PR comments, GitHub job summaries): a heading with the
 * counts, a table of active findings linking each rule to its page, suppressed
 * findings in a collapsed section.
 */
import type { Finding } from '../model/index.js';
import { helpUri, locationText, summaryLine, type FindingsReportOptions } from './findings-common.js';
import { markdownCode, terminalSafe } from './sanitize.js';
import { pushAll } from '../util/list.js';

/**
 * Make text safe inside a table cell: pipes escaped, newlines as <br>, no raw
 * HTML outside code spans (inside them `<` is literal, so it is left alone).
 */
export function markdownCell(text: string): string {
  return text
    .split(/(`[^`\n]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, '<br>');
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

const ICON: Record<Finding['severity'], string> = { error: '🔴 error', warning: '🟠 warning', note: '🔵 note' };

function ruleCell(id: string, options: FindingsReportOptions): string {
  const uri = helpUri(id, options);
  return uri ? `[${code(id)}](${uri})` : code(id);
}

function row(f: Finding, options: FindingsReportOptions): string {
  const rule = ruleCell(f.rule, options);
  const msg = f.hint ? `${markdownCell(f.message)}<br>_Fix:_ ${markdownCell(f.hint)}` : markdownCell(f.message);
  return `| ${ICON[f.severity]} | ${rule} | ${markdownCode(locationText(f), true)} | ${msg} |`;
}

function suppressedRow(f: Finding, options: FindingsReportOptions): string {
  const why = f.suppressed!.kind === 'inline' ? `inline: ${f.suppressed!.reason ?? '(no reason)'}` : 'baseline';
  return `| ${ruleCell(f.rule, options)} | ${markdownCode(locationText(f), true)} | ${markdownCell(why)} | ${markdownCell(f.message)} |`;
}

export function formatFindingsMarkdown(findings: readonly Finding[], options: FindingsReportOptions = {}): string {
  const active = findings.filter((f) => !f.suppressed);
  const suppressed = findings.filter((f) => f.suppressed);
  const out = [`## ${options.title ?? 'pinwatch'}: ${summaryLine(findings)}`, ''];
  if (active.length) {
    out.push('| Severity | Rule | Location | Message |', '| --- | --- | --- | --- |', ...active.map((f) => row(f, options)), '');
  }
  if (suppressed.length) {
    out.push(`<details><summary>${suppressed.length} suppressed</summary>`, '', '| Rule | Location | Suppressed by | Message |', '| --- | --- | --- | --- |');
    pushAll(out, suppressed.map((f) => suppressedRow(f, options)));
    out.push('', '</details>', '');
  }
  for (const n of options.notes ?? []) out.push(`> ${markdownCell(n)}`, '');
  return terminalSafe(`${out.join('\n').trimEnd()}\n`);
}
