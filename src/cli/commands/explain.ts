/** `pinwatch explain IMAGE`: pins, producers, recipe, build inputs, provenance steps and unshipped commits of one image. */
import type { CommandRegistrar } from '../main.js';
import type { CommandContext } from '../context.js';
import { addRegistryFlags } from '../registry-flags.js';
import type { ExplainFlags } from './explain.run.js';

export const registerExplain: CommandRegistrar = (program, run) => {
  const cmd = program
    .command('explain')
    .description('show how pinwatch sees one image: pins, producer, build recipe, build inputs, provenance steps, unshipped commits')
    .argument('<image>', 'repository, or its last path component, or the pinwatch.yaml images key')
    .option('--registry', 'ask the registry for the image revision label first (network)');
  addRegistryFlags(cmd).action(
    run(async (ctx: CommandContext, image: string, flags: ExplainFlags) => {
      const { runExplain } = await import('./explain.run.js');
      return runExplain(ctx, image, flags);
    }),
  );
};
