/** `pinwatch demo`: build the embedded demo monorepo and run `check` on it. */
import type { CommandRegistrar } from '../main.js';
import type { CommandContext } from '../context.js';
import type { DemoFlags } from './demo.run.js';

export const registerDemo: CommandRegistrar = (program, run) => {
  program
    .command('demo')
    .description('build a small demo monorepo (real git history) in a temp folder and run `check` on it')
    .option('--dir <dir>', 'build the demo repo here instead of a new temp folder (must be empty)')
    .action(
      run(async (ctx: CommandContext, flags: DemoFlags) => {
        const { runDemo } = await import('./demo.run.js');
        return runDemo(ctx, flags);
      }),
    );
};
