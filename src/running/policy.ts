/**
 * When `running` fails the run: `--fail-on-running fix|any|never` (default fix).
 * fix: a first-party container runs `older` or `diverged`, or lacks a merged
 * `fix`; any: it lacks any merged commit to its inputs, or runs older/diverged;
 * never: exit 0. A shallow clone that left a first-party container unknown is 2
 * (the answer cannot be given), as for stale.
 */
import type { RunningContainer, RunningReport } from './types.js';

export type FailOnRunning = 'fix' | 'any' | 'never';

export interface RunningPolicy {
  failOnRunning: FailOnRunning;
}

export function runningFails(c: RunningContainer, policy: RunningPolicy): boolean {
  if (!c.firstParty || policy.failOnRunning === 'never') return false;
  if (c.status === 'older' || c.status === 'diverged') return true;
  return policy.failOnRunning === 'any' ? c.lacks.length > 0 : c.lacks.some((l) => l.type === 'fix');
}

export function runningExitCode(report: RunningReport, policy: RunningPolicy): number {
  if (report.shallow && report.containers.some((c) => c.firstParty && c.status === 'unknown')) return 2;
  return report.containers.some((c) => runningFails(c, policy)) ? 1 : 0;
}
