/** Rule levels: the catalog default, overridden by `rules:` in pinwatch.yaml. */
import type { Config, RuleLevel } from '../config/types.js';
import type { FailOn, Finding, Severity } from '../model/index.js';
import { SEVERITY_RANK } from '../model/index.js';
import { closestKey } from '../config/suggest.js';
import { LINT_RULES, lintRuleMeta } from '../rules/index.js';

/** The level a rule runs at; rules pinwatch lint does not know default to `warning`. */
export function levelFor(rule: string, config: Pick<Config, 'rules'>): RuleLevel {
  return config.rules[rule] ?? lintRuleMeta(rule)?.defaultLevel ?? 'warning';
}

/** Findings that count toward the exit code: not suppressed, at or above the threshold. */
export function failingFindings(findings: readonly Finding[], failOn: FailOn): Finding[] {
  if (failOn === 'never') return [];
  const min = SEVERITY_RANK[failOn as Severity];
  return findings.filter((f) => !f.suppressed && SEVERITY_RANK[f.severity] >= min);
}

/** 1 when any unsuppressed finding is at or above `failOn`, else 0. */
export function exitCodeFor(findings: readonly Finding[], failOn: FailOn = 'error'): 0 | 1 {
  return failingFindings(findings, failOn).length > 0 ? 1 : 0;
}

/**
 * `rules:` entries that look like a misspelt lint rule (`floting-tag`). Ids far
 * from every lint rule are left alone: other commands own them (`stale-image`).
 */
export function misspeltRuleNotes(config: Pick<Config, 'rules'>): string[] {
  const ids = LINT_RULES.map((r) => r.id);
  return Object.keys(config.rules)
    .filter((id) => !ids.includes(id))
    .flatMap((id) => {
      const near = closestKey(id, ids);
      return near ? [`pinwatch.yaml rules: "${id}" is not a lint rule and is ignored; did you mean "${near}"?`] : [];
    });
}
