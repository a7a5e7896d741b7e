/**
 * `pinwatch overlay --from DIR`: put an artifact's current-main refs onto the
 * checkout where every difference is a ref; name every drifted file and line.
 * Thin: parse flags, run src/overlay, format with src/report/overlay-*.
 */
import type { CommandRegistrar } from '../main.js';
import type { CommandContext } from '../context.js';
import type { OverlayFlags } from './overlay.run.js';

const collect = (v: string, prev: string[] = []) => [...prev, v];

export const registerOverlay: CommandRegistrar = (program, run) => {
  program
    .command('overlay')
    .description('put freshly built current-main refs from an artifact tree onto the checkout, only where every differing line is a ref; name every drift')
    .option('--from <dir>', 'artifact tree (same layout as the checkout, or as --at) whose pins name the images just built')
    .option('--at <subdir>', 'the checkout subdirectory the artifact root stands for (e.g. packages)')
    .option('--built <dirs>', 'dirs rebuilt by this PR: skipped (JSON array or comma/space/newline list; repeatable)', collect)
    .option('--touched <dirs>', 'dirs edited by this PR: skipped, their refs are its intent (repeatable)', collect)
    .option('--owned <dirs>', 'dirs owned by another job: skipped (repeatable)', collect)
    .option('--dry-run', 'print a unified diff of what would change; write nothing')
    .option('--fail-on-drift', 'exit 1 when any file drifted')
    .option('--ignore-comments', 'comment-only differences do not count as drift')
    .option('--list-same', 'text format: name every byte-identical file too')
    .action(
      run(async (ctx: CommandContext, flags: OverlayFlags) => {
        const { runOverlayCommand } = await import('./overlay.run.js');
        return runOverlayCommand(ctx, flags);
      }),
    );
};
