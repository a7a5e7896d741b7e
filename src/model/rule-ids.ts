/**
 * Every rule id pinwatch knows, lint's and stale's, as plain data at the bottom
 * of the layering: the config validator checks `rules:` keys against it without
 * importing the rule modules (config sits below them). rules/catalog.ts and
 * stale/findings.ts hold each rule's metadata; a test keeps the lists equal.
 */
export const LINT_RULE_IDS = [
  'first-party-missing-digest',
  'floating-tag',
  'repository-multiple-digests',
  'no-producer',
  'multiple-producers',
  'lockstep-mismatch',
  'producer-not-built',
  'write-without-pin',
  'unparsed-file',
  'invalid-ref',
  'build-recipe-problem',
  'build-recipe-assumption',
  'third-party-missing-digest',
  'suppression-without-reason',
  'suppression-unknown-rule',
  'unused-suppression',
] as const;

export const STALE_RULE_IDS = ['stale-image', 'stale-unknown', 'rebuild-needed'] as const;

export type RuleId = (typeof LINT_RULE_IDS)[number] | (typeof STALE_RULE_IDS)[number];
