/** What `pinwatch report` does when it runs (declared in ../program.ts, loaded only when it runs). */
import { resolve } from 'node:path';
import type { CommandContext } from '../context.js';
import type { CheckFlags } from '../flags/check.js';
import { checkFromFlags } from './check.js';
import { withProgress } from '../terminal.js';
import { PinwatchError } from '../../errors.js';
import { exitCodeFor } from '../../lint/index.js';
import { htmlPage } from '../html-page.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { say } from '../stderr.js';
import { loadCommandConfig } from '../config.js';
import type { RunningReport } from '../../running/types.js';

/** The running view of `report --pods FILE|DIR|-` (the same pipeline as `pinwatch running`). */
async function runningView(ctx: CommandContext, pods: string): Promise<RunningReport> {
  const { readPods, runningBuilds } = await import('../../running/index.js');
  const list = await readPods(pods, { cwd: ctx.io.cwd, ...(ctx.io.readStdin ? { stdin: ctx.io.readStdin } : {}) });
  return runningBuilds(ctx.global.repo, await loadCommandConfig(ctx), list);
}

export interface ReportFlags extends CheckFlags {
  html?: string;
  /** A pod list: the report also shows what the cluster runs (see running). */
  pods?: string;
}

function htmlTarget(ctx: CommandContext, flags: ReportFlags): string {
  if (ctx.global.format !== undefined || ctx.global.output !== undefined) {
    const saw = ctx.global.format !== undefined ? `--format "${ctx.global.format}"` : `--output "${ctx.global.output}"`;
    throw new PinwatchError('unsupported-option', `report takes no --format or --output (saw ${saw}); name the file with --html FILE, e.g. \`pinwatch report --html pinwatch.html\``);
  }
  if (!flags.html) throw new PinwatchError('missing-option', 'report needs --html FILE, e.g. `pinwatch report --html pinwatch.html`');
  return resolve(ctx.io.cwd, flags.html);
}

export async function runReport(ctx: CommandContext, flags: ReportFlags): Promise<number> {
  const target = htmlTarget(ctx, flags);
  const now = new Date();
  const { result, notes, config } = await withProgress(ctx, `report: reading the history${flags.registry ? ' and asking the registry' : ''}`, () => checkFromFlags(ctx, flags, now));
  const running = flags.pods !== undefined ? await runningView(ctx, flags.pods) : undefined;
  const html = await htmlPage(ctx.global.repo, config, result, notes, now, running ? { running } : {});
  writeFileAtomic(target, html);
  const active = result.findings.filter((f) => !f.suppressed).length;
  say(ctx, `wrote ${flags.html} (${result.stale.images.length} images, ${active} findings)\n`);
  return exitCodeFor(result.findings, ctx.global.failOn ?? 'error');
}
