/**
 * Where the CLI's reports go: stdout, or `--output FILE` (written atomically;
 * `--output -` is stdout), and for `--format github` the Markdown job summary
 * appended to `$GITHUB_STEP_SUMMARY` and the step outputs (`error-count`,
 * `warning-count`, `stale-count`) to `$GITHUB_OUTPUT`. One policy for both: when
 * the environment names a file that cannot be appended to, the run fails
 * (`step-summary-unwritable`, exit 2) rather than dropping it silently.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PinwatchError } from '../errors.js';
import type { Finding } from '../model/index.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { CommandContext } from './context.js';

/** Write a report to --output (atomically) or stdout (no --output, or `--output -`), with a trailing newline. */
export function emit(ctx: CommandContext, text: string): void {
  const body = text.endsWith('\n') ? text : `${text}\n`;
  const output = ctx.global.output;
  if (output !== undefined && output !== '-') writeFileAtomic(resolve(ctx.io.cwd, output), body);
  else ctx.io.out(body);
}

/** Append Markdown to the job summary file; a failure to write is a runtime error, not silence. */
export function appendStepSummary(ctx: CommandContext, markdown: string): boolean {
  const path = ctx.io.env.GITHUB_STEP_SUMMARY;
  if (!path) return false;
  try {
    appendFileSync(resolve(ctx.io.cwd, path), `${markdown}\n`);
  } catch (e) {
    throw new PinwatchError('step-summary-unwritable', `cannot append to GITHUB_STEP_SUMMARY ${JSON.stringify(path)}: ${(e as Error).message}`);
  }
  return true;
}

/**
 * Set step outputs in `$GITHUB_OUTPUT` (heredoc form, so any value is safe);
 * nothing when the variable is unset (not in a GitHub Actions step).
 */
export function setStepOutputs(ctx: CommandContext, outputs: Record<string, string | number>): boolean {
  const path = ctx.io.env.GITHUB_OUTPUT;
  if (!path) return false;
  const delimiter = `pinwatch_${randomBytes(8).toString('hex')}`;
  const body = Object.entries(outputs).map(([k, v]) => `${k}<<${delimiter}\n${String(v)}\n${delimiter}\n`).join('');
  try {
    appendFileSync(resolve(ctx.io.cwd, path), body);
  } catch (e) {
    throw new PinwatchError('step-summary-unwritable', `cannot append to GITHUB_OUTPUT ${JSON.stringify(path)}: ${(e as Error).message}`);
  }
  return true;
}

/** The counts a workflow branches on: active (not suppressed) errors and warnings. */
export function findingCounts(findings: readonly Finding[]): { 'error-count': number; 'warning-count': number } {
  const active = findings.filter((f) => !f.suppressed);
  return { 'error-count': active.filter((f) => f.severity === 'error').length, 'warning-count': active.filter((f) => f.severity === 'warning').length };
}
