/**
 * When stale fails the run: `failOnStale` fix|any|never (default fix: an
 * unshipped commit is a `fix`) and `maxAgeDays` (only when the oldest counted
 * unshipped commit is older than that). The CLI parses the flags into this
 * policy (src/cli/flags/stale.ts).
 */
import type { StaleImage, StaleReport, UnshippedCommit } from './types.js';

export type FailOnStale = 'fix' | 'any' | 'never';

export interface StalePolicy {
  failOnStale: FailOnStale;
  maxAgeDays?: number;
  now: Date;
}

const DAY_MS = 86_400_000;

/** The unshipped commits that count under the policy. */
export function countedCommits(img: StaleImage, policy: StalePolicy): UnshippedCommit[] {
  if (policy.failOnStale === 'never') return [];
  return policy.failOnStale === 'fix' ? img.unshipped.filter((u) => u.type === 'fix') : img.unshipped;
}

export function imageFails(img: StaleImage, policy: StalePolicy): boolean {
  const counted = countedCommits(img, policy);
  if (counted.length === 0) return false;
  if (policy.maxAgeDays === undefined) return true;
  const oldest = Math.min(...counted.map((u) => Date.parse(u.date)));
  return (policy.now.getTime() - oldest) / DAY_MS > policy.maxAgeDays;
}

/** 1 when some image fails the policy, else 0. */
export function staleExitCode(report: StaleReport, policy: StalePolicy): number {
  return report.images.some((i) => imageFails(i, policy)) ? 1 : 0;
}
