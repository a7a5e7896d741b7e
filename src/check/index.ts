export { checkRepo } from './repo.js';
export type { CheckOptions, CheckResult } from './repo.js';
