/**
 * Plain-text findings for a terminal, grouped by rule (errors first): a header
 * per rule (`[rule] 12 errors`) with its fix hint printed once, then one line per
 * finding (`file:line:col: severity [rule] message`) with related places indented
 * below (and a fix only where a finding's hint differs from its group's). The
 * summary line comes first; suppressed findings are counted there and listed
 * only under `verbose`; `quiet` prints the summary and notes only.
 */
import type { Finding, Severity } from '../model/index.js';
import { locationText, summaryLine, type FindingsReportOptions } from './findings-common.js';
import { terminalSafe } from './sanitize.js';
import { pushAll } from '../util/list.js';
import { finish, findingsColourer, findingsWrap, PLAIN, type Detail } from './style.js';

const RANK: Record<Severity, number> = { error: 0, warning: 1, note: 2 };

function block(f: Finding, groupHint: string | undefined): string[] {
  const lines = [`${locationText(f)}: ${f.severity} [${f.rule}] ${f.message}`];
  for (const r of f.related ?? []) lines.push(`    see ${locationText(r)}${r.message ? `: ${r.message}` : ''}`);
  if (f.hint && f.hint !== groupHint) lines.push(`    fix: ${f.hint}`);
  return lines;
}

/** The hint most findings of a group share (printed once at its head). */
function commonHint(group: readonly Finding[]): string | undefined {
  const counts = new Map<string, number>();
  for (const f of group) if (f.hint) counts.set(f.hint, (counts.get(f.hint) ?? 0) + 1);
  let best: string | undefined;
  for (const [hint, n] of counts) if (best === undefined || n > counts.get(best)!) best = hint;
  return best;
}

/** `12 errors, 1 warning` for one group. */
function groupCounts(group: readonly Finding[]): string {
  return (['error', 'warning', 'note'] as const)
    .map((s) => [s, group.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}${n === 1 ? '' : 's'}`)
    .join(', ');
}

/** Active findings grouped by rule: worst severity first, then first appearance; findings keep their order. */
export function groupByRule(findings: readonly Finding[]): Finding[][] {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const g = groups.get(f.rule);
    if (g) g.push(f);
    else groups.set(f.rule, [f]);
  }
  const worst = (g: Finding[]) => g.reduce((m, f) => Math.min(m, RANK[f.severity]), 2);
  return [...groups.values()].map((g, i) => ({ g, i })).sort((a, b) => worst(a.g) - worst(b.g) || a.i - b.i).map((x) => x.g);
}

export function formatFindingsText(findings: readonly Finding[], options: FindingsReportOptions = {}): string {
  const out: string[] = [];
  if (options.title) out.push(options.title, '');
  pushAll(out, findingsTextLines(findings, options.detail ?? 'normal', options.notes ?? []));
  return finish(terminalSafe(`${out.join('\n')}\n`), options.style ?? PLAIN, findingsColourer, findingsWrap);
}

/** The summary (and why some findings are not listed), the notes, then the groups (check embeds these lines). */
export function findingsTextLines(findings: readonly Finding[], detail: Detail, notes: readonly string[]): string[] {
  const active = findings.filter((f) => !f.suppressed);
  const suppressed = findings.filter((f) => f.suppressed);
  const out: string[] = [summaryLine(findings)];
  if (suppressed.length > 0 && detail !== 'verbose') out.push(`the ${suppressed.length} suppressed finding(s) are not listed (--verbose lists them)`);
  pushAll(out, notes);
  if (detail === 'quiet') return out;
  for (const group of groupByRule(active)) {
    const hint = commonHint(group);
    out.push('', `[${group[0]!.rule}] ${groupCounts(group)}`);
    if (hint) out.push(`  fix: ${hint}`);
    for (const f of group) out.push(...block(f, hint));
  }
  if (detail === 'verbose' && suppressed.length > 0) {
    out.push('', `suppressed (not counted): ${suppressed.length}`);
    for (const f of suppressed) out.push(`${locationText(f)}: ${f.severity} [${f.rule}] ${f.message}`, `    suppressed by ${f.suppressed!.kind}${f.suppressed!.reason ? `: ${f.suppressed!.reason}` : ''}`);
  }
  return out;
}
