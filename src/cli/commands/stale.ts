/** `pinwatch stale`: per first-party image, the build commit, the method, and the merged commits it does not ship. */
import type { CommandRegistrar } from '../main.js';
import type { CommandContext } from '../context.js';
import { addRegistryFlags } from '../registry-flags.js';
import type { StaleFlags } from './stale.run.js';

export const registerStale: CommandRegistrar = (program, run) => {
  const cmd = program
    .command('stale')
    .description('per first-party image: which commit it was built from (and how we know), and the merged commits to its build inputs it does not ship')
    .argument('[images...]', 'only these images (short name or repository)')
    .option('--fail-on-stale <when>', 'exit 1 when an image lacks a merged fix (fix), any commit (any), or never', 'fix')
    .option('--max-age <days>', 'fail only when the oldest counted unshipped commit is older than DAYS')
    .option('--registry', 'ask the registry for the image revision label first (network)');
  addRegistryFlags(cmd).action(
    run(async (ctx: CommandContext, images: string[], flags: StaleFlags) => {
      const { runStale } = await import('./stale.run.js');
      return runStale(ctx, images, flags);
    }),
  );
};
