/** `pinwatch check` (the default command): lint + stale in one report, one exit code. */
import type { CommandRegistrar } from '../main.js';
import type { CommandContext } from '../context.js';
import { addRegistryFlags } from '../registry-flags.js';
import type { CheckFlags } from './check.run.js';

export const registerCheck: CommandRegistrar = (program, run) => {
  const cmd = program
    .command('check')
    .description('lint + stale in one report (the default command): the one job CI runs')
    .option('--fail-on-stale <when>', 'a stale image is an error when it lacks a merged fix (fix), any commit (any), or never', 'fix')
    .option('--max-age <days>', 'a stale image is an error only when its oldest counted unshipped commit is older than DAYS')
    .option('--baseline <file>', 'baseline file to apply (default: config baseline, else .pinwatch-baseline.json when present)')
    .option('--no-baseline', 'ignore any baseline: report every finding')
    .option('--registry', 'ask the registry for the image revision label first (network)');
  addRegistryFlags(cmd).action(
    run(async (ctx: CommandContext, flags: CheckFlags) => {
      const { runCheck } = await import('./check.run.js');
      return runCheck(ctx, flags);
    }),
  );
};
