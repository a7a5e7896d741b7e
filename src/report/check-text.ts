/** `pinwatch check` as text: the stale table first (the reason pinwatch exists), then the invariants. */
import type { Finding } from '../model/index.js';
import type { StaleReportResult } from '../stale/index.js';
import { STALE_RULES } from '../stale/findings.js';
import { formatFindingsText } from './findings-text.js';
import { formatStaleText } from './stale-text.js';
import { terminalSafe } from './sanitize.js';

const STALE_RULE_IDS = new Set(STALE_RULES.map((r) => r.id));

/** PR mode (check --base): what the report compared against and the rebuilds the PR owes. */
export interface CheckTextPr {
  base: string;
  commit: string;
  prCommits: number;
  onBase: number;
}

export function formatCheckText(stale: StaleReportResult, findings: readonly Finding[], notes: readonly string[] = [], pr?: CheckTextPr): string {
  const lintFindings = findings.filter((f) => !STALE_RULE_IDS.has(f.rule));
  const active = findings.filter((f) => !f.suppressed);
  const count = (s: Finding['severity']) => active.filter((f) => f.severity === s).length;
  const rebuild = active.filter((f) => f.rule === 'rebuild-needed');
  const prSection = pr
    ? [
        `== This pull request, against ${pr.base} (${pr.commit.slice(0, 10)}): ${pr.prCommits} commit(s) of its own`,
        '',
        ...(rebuild.length > 0 ? rebuild.map((f) => `${f.message}`) : ['it changes no first-party image\'s build inputs']),
        `${pr.onBase} lint finding(s) already in ${pr.base} are not reported; unshipped commits count only those ${pr.base} has`,
        '',
      ]
    : [];
  const out = [
    ...prSection,
    '== Merged but not shipped: first-party images vs the commits they were built from',
    '',
    formatStaleText(stale).trimEnd(),
    '',
    '== Invariants: every pin checked',
    '',
    lintFindings.some((f) => !f.suppressed) ? formatFindingsText(lintFindings, { notes }).trimEnd() : 'no lint findings',
    '',
    `check: ${count('error')} error(s), ${count('warning')} warning(s), ${count('note')} note(s) in all`,
  ];
  return terminalSafe(`${out.join('\n')}\n`);
}
