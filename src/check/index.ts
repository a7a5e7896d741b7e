export { checkRepo } from './repo.js';
export type { CheckOptions, CheckPrMode, CheckResult } from './repo.js';
