/**
 * `pinwatch report --html FILE`: the `check` pipeline, written as one self-contained
 * HTML dashboard. Exit code as `check`: 1 when a finding is at or above --fail-on.
 */
import type { CommandRegistrar } from '../main.js';
import type { CommandContext } from '../context.js';
import { addRegistryFlags } from '../registry-flags.js';
import type { ReportFlags } from './report.run.js';

export const registerReport: CommandRegistrar = (program, run) => {
  const cmd = program
    .command('report')
    .description('write the check results as one self-contained HTML dashboard (no JavaScript, no network)')
    .option('--html <file>', 'write the HTML report to FILE (atomically)')
    .option('--fail-on-stale <when>', 'a stale image is an error when it lacks a merged fix (fix), any commit (any), or never', 'fix')
    .option('--max-age <days>', 'a stale image is an error only when its oldest counted unshipped commit is older than DAYS')
    .option('--baseline <file>', 'baseline file to apply (default: config baseline, else .pinwatch-baseline.json when present)')
    .option('--no-baseline', 'ignore any baseline: report every finding')
    .option('--registry', 'ask the registry for the image revision label first (network)');
  addRegistryFlags(cmd).action(
    run(async (ctx: CommandContext, flags: ReportFlags) => {
      const { runReport } = await import('./report.run.js');
      return runReport(ctx, flags);
    }),
  );
};
