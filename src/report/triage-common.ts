/** Shared wording of the triage formatters (text, markdown, github). Pure. */
import type { TriageReport } from '../triage/index.js';

export const short = (sha: string): string => sha.slice(0, 10);

/** `12 line(s) read, 3 matched: 1 skew, 1 no-skew, 10 unknown`. */
export function triageSummaryLine(report: TriageReport): string {
  const s = report.summary;
  const unlisted = s.unlisted > 0 ? ` (${s.unlisted} line(s) matched nothing and do not look like errors: counted, not listed)` : '';
  return `${s.lines} line(s) read, ${s.matched} matched a source literal: ${s.skew} skew, ${s.noSkew} no-skew, ${s.unknown} unknown${unlisted}`;
}

/** `HEAD 3c780acd41; history since cc66e22952 (276 commits); 3023 literals from 372 files (112 removed in the window)`. */
export function triageBasisLine(report: TriageReport): string {
  const since = /^[0-9a-f]{40,64}$/.test(report.window.since) ? short(report.window.since) : report.window.since;
  return `HEAD ${short(report.head)}; history since ${since} (${report.window.commits} first-parent commit(s) touching sources); ${report.index.literals} literal(s) from ${report.index.files} file(s), ${report.index.removed} of them removed in the window`;
}

export const VERDICT_LABEL = { skew: 'SKEW', 'no-skew': 'no-skew', unknown: 'unknown' } as const;
