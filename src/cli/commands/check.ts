/** `pinwatch check` (the default command): lint + stale in one report, one exit code. */
import type { CommandRegistrar } from '../main.js';
import type { CommandContext } from '../context.js';
import { addCheckFlags, type CheckFlags } from '../check-flags.js';

export const registerCheck: CommandRegistrar = (program, run) => {
  const cmd = program.command('check').description('lint + stale in one report (the default command): the one job CI runs');
  addCheckFlags(cmd).action(
    run(async (ctx: CommandContext, flags: CheckFlags) => {
      const { runCheck } = await import('./check.run.js');
      return runCheck(ctx, flags);
    }),
  );
};
