/** What `pinwatch demo` does when it runs (declared in ../program.ts, loaded only when it runs). */
import type { CommandContext } from '../context.js';
import { say } from '../stderr.js';
import { buildDemoRepo, DEMO_LOG_FILE, writeDemoPods } from '../../demo/index.js';
import { join } from 'node:path';
import type { Rerun } from '../context.js';

export interface DemoFlags {
  dir?: string;
}

/** `rerun` is pinwatch itself (main), passed in so this body does not import the program that declares it. */
export async function runDemo(ctx: CommandContext, flags: DemoFlags, rerun: Rerun): Promise<number> {
  const dir = buildDemoRepo(flags.dir);
  say(ctx, `pinwatch demo: built a demo platform monorepo with real git history in ${dir}\n\n`);
  const forwarded = ['--repo', dir];
  if (ctx.global.format) forwarded.push('--format', ctx.global.format);
  if (ctx.global.output) forwarded.push('--output', ctx.global.output);
  const code = await rerun([...forwarded, '--fail-on', 'never', 'check'], ctx.io);
  // what the demo cluster runs: billing-controller is still on the v0.9.0 build, older than its pin
  const pods = writeDemoPods(dir);
  say(ctx, `\npinwatch demo: what the demo cluster runs (a pod list snapshot in ${pods}):\n\n`);
  const running = await rerun([...forwarded, '--fail-on', 'never', 'running', '--pods', pods], ctx.io);
  // The story's red e2e lane: is it version skew? (exit 1 = yes, which is the point of the demo, not a failure)
  say(ctx, `\npinwatch demo: triage of the failing e2e lane's log (${DEMO_LOG_FILE}):\n\n`);
  const triaged = await rerun([...forwarded, 'triage', join(dir, DEMO_LOG_FILE)], ctx.io);
  say(
    ctx,
    [
      '',
      'Try it yourself on the demo repo:',
      `  node bin/pinwatch.js scan    --repo ${dir}`,
      `  node bin/pinwatch.js stale   --repo ${dir}`,
      `  node bin/pinwatch.js explain billing-controller --repo ${dir}`,
      `  node bin/pinwatch.js lint    --repo ${dir} --format sarif`,
      `  node bin/pinwatch.js running --repo ${dir} --pods ${pods}`,
      `  node bin/pinwatch.js triage  --repo ${dir} ${join(dir, DEMO_LOG_FILE)}`,
      '',
    ].join('\n'),
  );
  return code === 2 || running === 2 || triaged === 2 ? 2 : 0;
}
