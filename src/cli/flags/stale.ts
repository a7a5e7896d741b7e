/**
 * The stale policy flags, shared by `stale`, `check` and `report`:
 * `--fail-on-stale fix|any|never` and `--max-age DAYS`, parsed into the
 * library's StalePolicy.
 */
import { PinwatchError } from '../../errors.js';
import type { FailOnStale, StalePolicy } from '../../stale/index.js';

export interface StalePolicyFlags {
  failOnStale?: string;
  maxAge?: string;
}

export function parseFailOnStale(value: string | undefined): FailOnStale {
  const v = value ?? 'fix';
  if (v === 'fix' || v === 'any' || v === 'never') return v;
  throw new PinwatchError('invalid-fail-on-stale', `--fail-on-stale must be fix, any or never; saw "${v}"`);
}

export function parseMaxAge(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value)) throw new PinwatchError('invalid-max-age', `--max-age must be a number of days, like 7; saw "${value}"`);
  return Number(value);
}

export function stalePolicy(flags: StalePolicyFlags, now: Date): StalePolicy {
  return { failOnStale: parseFailOnStale(flags.failOnStale), maxAgeDays: parseMaxAge(flags.maxAge), now };
}
