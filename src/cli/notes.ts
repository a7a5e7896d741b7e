/**
 * What a lint run tells the reader besides its findings: what the scan's journal
 * recovery did (an interrupted write finished or undone: a note, never a
 * finding), misspelt rule ids in the config and how the baseline matched (with
 * the command that refreshes it). lint and check print the same notes and the
 * same `baseline` block in JSON.
 */
import type { Config } from '../config/types.js';
import { RECOVERY_CODES } from '../journal/journal.js';
import { misspeltRuleNotes, type LintRepoResult } from '../lint/index.js';

/** One line per recovery note, worded as stale's report words them (`file: code: reason`). */
export function recoveryNotes(problems: LintRepoResult['scan']['problems']): string[] {
  return problems.filter((p) => RECOVERY_CODES.has(p.code)).map((p) => `${p.file}: ${p.code}: ${p.reason}`);
}

export function lintReportNotes(result: LintRepoResult, config: Config): string[] {
  const out: string[] = [...recoveryNotes(result.scan.problems), ...misspeltRuleNotes(config)];
  const b = result.baseline;
  if (b && result.baselineFile) {
    out.push(`baseline ${result.baselineFile}: ${b.matched} of ${b.entries} entries matched`);
    if (b.unused.length) out.push(`${b.unused.length} baseline entries match nothing any more (fixed or moved); refresh with \`pinwatch lint --write-baseline ${result.baselineFile}\``);
  }
  return out;
}

/** The `baseline` block of the JSON report: which file, how many entries matched, which are unused; null without one. */
export function baselineJson(result: LintRepoResult): Record<string, unknown> | null {
  return result.baseline ? { file: result.baselineFile, ...result.baseline } : null;
}
