/** What `pinwatch lint` does when it runs (declared in ../program.ts, loaded only when it runs). */
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { loadCommandConfig } from '../config.js';
import { DEFAULT_BASELINE_FILE, exitCodeFor, lintRepo, writeBaselineFile } from '../../lint/index.js';
import { baselineJson, lintReportNotes } from '../notes.js';
import { emitFindingsReport } from '../findings-output.js';
import { say } from '../stderr.js';
import { COMMAND_FORMATS } from '../formats.js';
import { textOptions, withProgress } from '../terminal.js';

export interface LintFlags {
  writeBaseline?: string | boolean;
  baseline?: string | false;
}

export async function runLint(ctx: CommandContext, flags: LintFlags): Promise<number> {
  const format = pickFormat(ctx, COMMAND_FORMATS.lint, 'text');
  const root = ctx.global.repo;
  const config = await loadCommandConfig(ctx);
  if (flags.writeBaseline) {
    const file = typeof flags.writeBaseline === 'string' ? flags.writeBaseline : (config.baseline ?? DEFAULT_BASELINE_FILE);
    const result = await lintRepo(root, config, { baseline: false });
    const n = writeBaselineFile(root, file, result.findings);
    say(ctx, `pinwatch: wrote ${n} finding${n === 1 ? '' : 's'} to the baseline ${file}\n`);
    return 0;
  }
  const result = await withProgress(ctx, 'lint: reading the tree', () => lintRepo(root, config, { baseline: flags.baseline }));
  const reportNotes = lintReportNotes(result, config);
  emitFindingsReport(ctx, format, result.findings, {
    title: 'pinwatch lint',
    root,
    notes: reportNotes,
    jsonExtra: { baseline: baselineJson(result), notes: reportNotes },
    ...(format === 'text' ? textOptions(ctx) : {}),
  });
  return exitCodeFor(result.findings, ctx.global.failOn ?? 'error');
}
