/**
 * Findings reports (lint, check, stale): any findings format, naming this
 * pinwatch as the tool, and for `github` the job summary and step outputs too.
 * Apart from ./output.ts so that commands without findings (scan, explain, …)
 * do not load the findings formatters.
 */
import type { Finding } from '../model/index.js';
import { formatFindings, type FindingsFormat, type FindingsReportOptions } from '../report/findings-format.js';
import { formatFindingsMarkdown } from '../report/findings-markdown.js';
import type { CommandContext } from './context.js';
import { appendStepSummary, emit, findingCounts, setStepOutputs } from './output.js';
import { TOOL } from './version.js';

/** Any command's findings in a findings format, naming this pinwatch (version from package.json) as the tool. */
export function findingsReport(format: FindingsFormat, findings: readonly Finding[], options: FindingsReportOptions = {}): string {
  return formatFindings(format, findings, { tool: TOOL, ...options });
}

/** Emit a findings report; for `github`, also append the Markdown report to the job summary. */
export function emitFindingsReport(ctx: CommandContext, format: FindingsFormat, findings: readonly Finding[], options: FindingsReportOptions = {}): void {
  emit(ctx, findingsReport(format, findings, options));
  if (format === 'github') {
    appendStepSummary(ctx, formatFindingsMarkdown(findings, options));
    setStepOutputs(ctx, findingCounts(findings));
  }
}
