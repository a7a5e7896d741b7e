/** `pinwatch inspect REF`: what the registry says about an image — digest, platforms, labels, build commit. */
import type { CommandRegistrar } from '../main.js';
import type { CommandContext } from '../context.js';
import { addRegistryFlags } from '../registry-flags.js';
import type { RegistryFlags } from '../../registry/options.js';

export const registerInspect: CommandRegistrar = (program, run) => {
  const cmd = program
    .command('inspect')
    .description('show what the registry says about an image: digest, platforms, labels, and the commit it was built from')
    .argument('<ref>', 'image reference, e.g. ghcr.io/acme/app:v1.2.0 or …@sha256:…');
  addRegistryFlags(cmd).action(
    run(async (ctx: CommandContext, ref: string, flags: RegistryFlags) => {
      const { runInspect } = await import('./inspect.run.js');
      return runInspect(ctx, ref, flags);
    }),
  );
};
