/** `pinwatch demo`: build the embedded demo monorepo and run `check` on it. */
import type { CommandRegistrar } from '../main.js';
import { buildDemoRepo } from '../../demo/index.js';
import { main } from '../main.js';

export const registerDemo: CommandRegistrar = (program, run) => {
  program
    .command('demo')
    .description('build a small demo monorepo (real git history) in a temp folder and run `check` on it')
    .option('--dir <dir>', 'build the demo repo here instead of a new temp folder (must be empty)')
    .action(
      run(async (ctx, opts: { dir?: string }) => {
        const dir = buildDemoRepo(opts.dir);
        ctx.io.err(`pinwatch demo: built a demo platform monorepo with real git history in ${dir}\n\n`);
        const forwarded = ['--repo', dir];
        if (ctx.global.format) forwarded.push('--format', ctx.global.format);
        if (ctx.global.output) forwarded.push('--output', ctx.global.output);
        const code = await main([...forwarded, '--fail-on', 'never', 'check'], ctx.io);
        ctx.io.err(
          [
            '',
            'Try it yourself on the demo repo:',
            `  node bin/pinwatch.js scan    --repo ${dir}`,
            `  node bin/pinwatch.js stale   --repo ${dir}`,
            `  node bin/pinwatch.js explain billing-controller --repo ${dir}`,
            `  node bin/pinwatch.js lint    --repo ${dir} --format sarif`,
            '',
          ].join('\n'),
        );
        return code === 2 ? 2 : 0;
      }),
    );
};
