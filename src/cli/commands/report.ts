/**
 * `pinwatch report --html FILE`: the `check` pipeline, written as one self-contained
 * HTML dashboard. Exit code as `check`: 1 when a finding is at or above --fail-on.
 */
import type { CommandRegistrar } from '../main.js';
import type { CommandContext } from '../context.js';
import { addCheckFlags } from '../check-flags.js';
import type { ReportFlags } from './report.run.js';

export const registerReport: CommandRegistrar = (program, run) => {
  const cmd = program
    .command('report')
    .description('write the check results as one self-contained HTML dashboard (no JavaScript, no network)')
    .option('--html <file>', 'write the HTML report to FILE (atomically)');
  addCheckFlags(cmd).action(
    run(async (ctx: CommandContext, flags: ReportFlags) => {
      const { runReport } = await import('./report.run.js');
      return runReport(ctx, flags);
    }),
  );
};
