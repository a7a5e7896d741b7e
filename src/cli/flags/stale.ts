/**
 * The stale policy flags, shared by `stale`, `check` and `report`:
 * `--fail-on-stale fix|any|unknown|never`, `--max-age DAYS` and
 * `--allow-shallow`, parsed into the
 * library's StalePolicy.
 */
import { PinwatchError } from '../../errors.js';
import { FAIL_ON_STALE_LEVELS, type FailOnStale, type StalePolicy } from '../../stale/policy.js';

export interface StalePolicyFlags {
  failOnStale?: string;
  maxAge?: string;
  allowShallow?: boolean;
}

export function parseFailOnStale(value: string | undefined): FailOnStale {
  const v = value ?? 'fix';
  if ((FAIL_ON_STALE_LEVELS as readonly string[]).includes(v)) return v as FailOnStale;
  throw new PinwatchError('invalid-fail-on-stale', `--fail-on-stale must be fix, any, unknown or never; saw "${v}"`);
}

export function parseMaxAge(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value)) throw new PinwatchError('invalid-max-age', `--max-age must be a number of days, like 7; saw "${value}"`);
  return Number(value);
}

export function stalePolicy(flags: StalePolicyFlags, now: Date): StalePolicy {
  return { failOnStale: parseFailOnStale(flags.failOnStale), maxAgeDays: parseMaxAge(flags.maxAge), now, ...(flags.allowShallow ? { allowShallow: true } : {}) };
}
