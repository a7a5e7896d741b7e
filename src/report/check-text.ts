/**
 * `pinwatch check` as text: the summary first (the counts the exit code comes
 * from, split into stale and lint so they add up, and what is not listed and
 * why), then the stale table (the reason pinwatch exists), then the invariants.
 */
import type { Finding } from '../model/index.js';
import type { StaleReportResult } from '../stale/index.js';
import { STALE_RULES } from '../stale/findings.js';
import { findingsTextLines } from './findings-text.js';
import { staleColourer, staleTextLines } from './stale-text.js';
import { summaryCounts } from './stale-common.js';
import { terminalSafe } from './sanitize.js';
import { pushAll } from '../util/list.js';
import { finish, findingsColourer, findingsWrap, paint, PLAIN, type Colourer, type TextOptions } from './style.js';

const STALE_RULE_IDS = new Set(STALE_RULES.map((r) => r.id));

/** PR mode (check --base): what the report compared against and the rebuilds the PR owes. */
export interface CheckTextPr {
  base: string;
  commit: string;
  prCommits: number;
  onBase: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `22 errors, 12 warnings, 3 notes` of the active findings. */
function severityCounts(findings: readonly Finding[]): string {
  const active = findings.filter((f) => !f.suppressed);
  const n = (s: Finding['severity']) => active.filter((f) => f.severity === s).length;
  return `${plural(n('error'), 'error')}, ${plural(n('warning'), 'warning')}, ${plural(n('note'), 'note')}`;
}

/** The summary: totals, then stale + lint (which add up to them), then what is counted but not listed. */
function summaryLines(stale: StaleReportResult, findings: readonly Finding[], pr: CheckTextPr | undefined): string[] {
  const staleFindings = findings.filter((f) => STALE_RULE_IDS.has(f.rule));
  const lintFindings = findings.filter((f) => !STALE_RULE_IDS.has(f.rule));
  const lintActive = lintFindings.filter((f) => !f.suppressed).length;
  const notCurrent = stale.images.filter((i) => i.status !== 'current').length;
  const lines = [
    `check: ${severityCounts(findings)} in all`,
    `  stale: ${severityCounts(staleFindings)} (one per pin of the ${notCurrent} image(s) not current)`,
    `  lint:  ${severityCounts(lintFindings)} (${plural(lintActive, 'finding')})`,
  ];
  const suppressed = findings.filter((f) => f.suppressed);
  if (suppressed.length > 0) {
    const by = (k: 'baseline' | 'inline') => suppressed.filter((f) => f.suppressed!.kind === k).length;
    lines.push(`  not counted: ${suppressed.length} suppressed (${by('baseline')} by the baseline, ${by('inline')} inline; --verbose lists them)`);
  }
  if (pr) lines.push(`  not reported: ${pr.onBase} lint finding(s) already in ${pr.base} (PR mode)`);
  lines.push(summaryCounts(stale.images));
  return lines;
}

const checkColourer: Colourer = (line, style) => {
  if (line.startsWith('check: ')) return paint(style, 'bold', line);
  if (line.startsWith('warning: ')) return paint(style, 'warning', line);
  return findingsColourer(line, style);
};

/**
 * The check report; `quiet` is the summary and notes only, `verbose` also details
 * current images and lists suppressed findings.
 */
export function formatCheckText(stale: StaleReportResult, findings: readonly Finding[], notes: readonly string[] = [], pr?: CheckTextPr, options: TextOptions = {}): string {
  const detail = options.detail ?? 'normal';
  const style = options.style ?? PLAIN;
  const lintFindings = findings.filter((f) => !STALE_RULE_IDS.has(f.rule));
  const active = findings.filter((f) => !f.suppressed);
  const rebuild = active.filter((f) => f.rule === 'rebuild-needed');
  const out = pushAll(summaryLines(stale, findings, pr), notes);
  if (detail !== 'quiet') {
    if (pr) {
      out.push('', `== This pull request, against ${pr.base} (${pr.commit.slice(0, 10)}): ${pr.prCommits} commit(s) of its own`, '');
      pushAll(out, rebuild.length > 0 ? rebuild.map((f) => `${f.message}`) : ["it changes no first-party image's build inputs"]);
      out.push(`${pr.onBase} lint finding(s) already in ${pr.base} are not reported; unshipped commits count only those ${pr.base} has`);
    }
    // the stale warnings and notes are among `notes`, printed once above
    const staleLines = staleTextLines({ ...stale, warnings: [], notes: [] }, { style, detail }).slice(1);
    out.push('', '== Merged but not shipped: first-party images vs the commits they were built from');
    pushAll(out, staleLines);
    out.push('', '== Invariants: every pin checked', '');
    if (lintFindings.length === 0) out.push('no lint findings');
    else pushAll(out, findingsTextLines(lintFindings, detail, []));
  }
  return finish(terminalSafe(`${out.join('\n')}\n`), style, (line, s) => {
    const coloured = checkColourer(line, s);
    return coloured !== line ? coloured : staleColourer(line, s);
  }, (line) => findingsWrap(line) ?? (line.startsWith('warning: ') || line.startsWith('note: ') || line.startsWith('assumed: ') || line.startsWith('PR mode: ') ? 4 : undefined));
}
