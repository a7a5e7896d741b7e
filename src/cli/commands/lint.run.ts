/** What `pinwatch lint` does when it runs (loaded on demand by ./lint.ts). */
import { pickFormat, type CommandContext } from '../context.js';
import { loadCommandConfig } from '../config.js';
import { baselineJson, DEFAULT_BASELINE_FILE, emitFindingsReport, exitCodeFor, lintReportNotes, lintRepo, writeBaselineFile } from '../../lint/index.js';
import { FINDINGS_FORMATS } from '../../report/findings-format.js';

export interface LintFlags {
  writeBaseline?: string | boolean;
  baseline?: string | false;
}

export async function runLint(ctx: CommandContext, flags: LintFlags): Promise<number> {
  const format = pickFormat(ctx, FINDINGS_FORMATS, 'text');
  const root = ctx.global.repo;
  const config = loadCommandConfig(ctx);
  if (flags.writeBaseline) {
    const file = typeof flags.writeBaseline === 'string' ? flags.writeBaseline : (config.baseline ?? DEFAULT_BASELINE_FILE);
    const result = await lintRepo(root, config, { baseline: false });
    const n = writeBaselineFile(root, file, result.findings);
    ctx.io.err(`pinwatch: wrote ${n} finding${n === 1 ? '' : 's'} to the baseline ${file}\n`);
    return 0;
  }
  const result = await lintRepo(root, config, { baseline: flags.baseline });
  const reportNotes = lintReportNotes(result, config);
  emitFindingsReport(ctx, format, result.findings, {
    title: 'pinwatch lint',
    root,
    notes: reportNotes,
    jsonExtra: { baseline: baselineJson(result), notes: reportNotes },
  });
  return exitCodeFor(result.findings, ctx.global.failOn ?? 'error');
}
