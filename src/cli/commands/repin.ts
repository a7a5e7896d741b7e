/** `pinwatch repin IMAGE --to REF | --to-tag TAG`: move every pin of a repository, byte-minimal, then rescan. */
import type { CommandRegistrar } from '../main.js';
import type { CommandContext } from '../context.js';
import { addRegistryFlags } from '../registry-flags.js';
import type { RepinFlags } from './repin.run.js';

export const registerRepin: CommandRegistrar = (program, run) => {
  const cmd = program
    .command('repin')
    .description('rewrite every pin of IMAGE (all shapes, lockstep keys included) to a new ref with byte-minimal edits, then rescan')
    .argument('<image>', 'repository (ghcr.io/acme/app) or a configured image name')
    .option('--to <ref>', 'the new ref: REPO:TAG@DIGEST (a missing digest is resolved through the registry)')
    .option('--to-tag <tag>', 'the new tag; its digest is resolved through the registry')
    .option('--dry-run', 'print the unified diff and write nothing')
    .option('--only-forward', "refuse unless the new image's build commit descends from the pinned image's");
  addRegistryFlags(cmd).action(
    run(async (ctx: CommandContext, image: string, flags: RepinFlags) => {
      const { runRepin } = await import('./repin.run.js');
      return runRepin(ctx, image, flags);
    }),
  );
};
