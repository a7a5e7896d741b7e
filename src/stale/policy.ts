/**
 * When stale fails the run: `failOnStale` fix|any|unknown|never (default fix: an
 * unshipped commit is a fix: its type, a `Fixes:` trailer or stale.fixPattern, see commit-meta.ts;
 * unknown: any unshipped commit, and an image pinwatch could not judge, fails too) and `maxAgeDays` (only when the oldest counted
 * unshipped commit is older than that). The CLI parses the flags into this
 * policy (src/cli/flags/stale.ts).
 */
import type { StaleImage, StaleReport, UnshippedCommit } from './types.js';

export type FailOnStale = 'fix' | 'any' | 'unknown' | 'never';
export const FAIL_ON_STALE_LEVELS: readonly FailOnStale[] = ['fix', 'any', 'unknown', 'never'];

export interface StalePolicy {
  failOnStale: FailOnStale;
  maxAgeDays?: number;
  now: Date;
  /** `--allow-shallow`: a shallow clone's unjudged images are not a refusal (they still fail under `unknown`). */
  allowShallow?: boolean;
}

const DAY_MS = 86_400_000;

/** The unshipped commits that count under the policy. */
export function countedCommits(img: StaleImage, policy: StalePolicy): UnshippedCommit[] {
  if (policy.failOnStale === 'never') return [];
  return policy.failOnStale === 'fix' ? img.unshipped.filter((u) => u.fix !== undefined) : img.unshipped;
}

export function imageFails(img: StaleImage, policy: StalePolicy): boolean {
  if (img.status === 'unknown') return policy.failOnStale === 'unknown';
  const counted = countedCommits(img, policy);
  if (counted.length === 0) return false;
  if (policy.maxAgeDays === undefined) return true;
  const oldest = Math.min(...counted.map((u) => Date.parse(u.date)));
  return (policy.now.getTime() - oldest) / DAY_MS > policy.maxAgeDays;
}

/**
 * Images a shallow clone left unjudged: in a shallow clone every `unknown` may
 * only be the boundary hiding the build commit. Fail safe: such a run is never a
 * green exit (affected refuses a shallow clone the same way).
 */
export function shallowUnknowns(report: StaleReport): StaleImage[] {
  return report.shallow ? report.images.filter((i) => i.status === 'unknown') : [];
}

/** The one line that says why a shallow run cannot answer, or undefined. */
export function shallowRefusal(report: StaleReport): string | undefined {
  const unknown = shallowUnknowns(report);
  if (unknown.length === 0) return undefined;
  return `[shallow-clone] ${unknown.length} of ${report.images.length} image(s) could not be judged in this shallow clone: the build commit may lie beyond its boundary; fetch full history (git fetch --unshallow, or actions/checkout with fetch-depth: 0)`;
}

/**
 * 2 when a shallow clone left images unjudged (the answer cannot be given; not
 * silenced by --fail-on-stale never, only by the global --fail-on never), else 1
 * when some image fails the policy, else 0. `allowShallow` lifts the refusal.
 */
export function staleExitCode(report: StaleReport, policy: StalePolicy): number {
  if (!policy.allowShallow && shallowUnknowns(report).length > 0) return 2;
  return report.images.some((i) => imageFails(i, policy)) ? 1 : 0;
}
