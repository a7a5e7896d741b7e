/** The lint rules pinwatch runs, in report order, and their catalog (barrel). */
export { RULE_CHECKS } from './checks.js';
export { LINT_RULES, lintRuleMeta, ruleHelpUri, RULE_DOCS_PATH } from './catalog.js';
export type * from './types.js';
