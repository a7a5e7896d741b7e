/**
 * Emit a findings report for any command: format it, write it to stdout or
 * --output, and for `--format github` append the Markdown summary to
 * `$GITHUB_STEP_SUMMARY` when the environment sets it.
 */
import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { emit, type CommandContext } from '../cli/context.js';
import { PinwatchError } from '../errors.js';
import type { Finding } from '../model/index.js';
import { formatFindings, type FindingsFormat, type FindingsReportOptions } from '../report/findings-format.js';
import { formatFindingsMarkdown } from '../report/findings-markdown.js';

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

export function emitFindingsReport(ctx: CommandContext, format: FindingsFormat, findings: readonly Finding[], options: FindingsReportOptions = {}): void {
  emit(ctx, formatFindings(format, findings, options));
  if (format === 'github') appendStepSummary(ctx, formatFindingsMarkdown(findings, options));
}
