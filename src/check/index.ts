export { checkRepo } from './check.js';
export type { CheckOptions, CheckResult } from './check.js';
