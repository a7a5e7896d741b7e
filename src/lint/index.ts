/** pinwatch lint as a library: the engine, suppressions, baseline, exit codes, repo runner. */
export { lint } from './engine.js';
export type { LintInput, LintResult } from './engine.js';
export { lintRepo, lintScanned, writeBaselineFile, resolveBaseline, fileTextReader } from './repo.js';
export type { LintRepoOptions, LintRepoResult } from './repo.js';
export { applyInlineSuppressions, applyBaseline } from './suppress.js';
export type { BaselineUse, DirectiveFinding, InlineOptions } from './suppress.js';
export { parseDirectives, directiveCovers } from './suppressions.js';
export type { Directive } from './suppressions.js';
export { baselineOf, parseBaseline, readBaseline, serializeBaseline, DEFAULT_BASELINE_FILE, BASELINE_VERSION } from './baseline.js';
export type { Baseline, BaselineEntry } from './baseline.js';
export { fingerprintOf, disambiguate } from './fingerprint.js';
export { levelFor, exitCodeFor, failingFindings, misspeltRuleNotes } from './levels.js';
