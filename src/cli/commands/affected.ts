/** `pinwatch affected --base REV`: the first-party images whose build inputs changed since REV, as a CI build matrix. */
import type { CommandRegistrar } from '../main.js';
import type { CommandContext } from '../context.js';
import type { AffectedFlags } from './affected.run.js';

export const registerAffected: CommandRegistrar = (program, run) => {
  program
    .command('affected')
    .description('first-party images whose build inputs changed between the merge base of REV and HEAD (a CI build matrix)')
    .requiredOption('--base <rev>', 'revision to compare with (git diff REV...HEAD semantics)')
    .option('--unknown <mode>', 'images whose build inputs are unknown: include (default, to be safe) or exclude', 'include')
    .action(
      run(async (ctx: CommandContext, flags: AffectedFlags) => {
        const { runAffected } = await import('./affected.run.js');
        return runAffected(ctx, flags);
      }),
    );
};
