/** What `pinwatch report` does when it runs (loaded on demand by ./report.ts). */
import { resolve } from 'node:path';
import type { CommandContext } from '../context.js';
import { loadCommandConfig } from '../config.js';
import { checkRepo } from '../../check/index.js';
import { PinwatchError } from '../../errors.js';
import { exitCodeFor } from '../../lint/index.js';
import { formatHtmlReport } from '../../report/html.js';
import { parseFailOnStale, parseMaxAge, type StalePolicy } from '../../stale/policy.js';
import { registryOptions } from '../../stale/registry-options.js';
import type { RegistryFlags } from '../../registry/options.js';
import { writeFileAtomic } from '../../util/atomic-write.js';

export interface ReportFlags extends RegistryFlags {
  html?: string;
  failOnStale?: string;
  maxAge?: string;
  registry?: boolean;
  baseline?: string | false;
}

function htmlTarget(ctx: CommandContext, flags: ReportFlags): string {
  if (ctx.global.format !== undefined || ctx.global.output !== undefined) {
    throw new PinwatchError('usage', 'report takes no --format or --output; name the file with --html FILE, e.g. `pinwatch report --html pinwatch.html`');
  }
  if (!flags.html) throw new PinwatchError('usage', 'report needs --html FILE, e.g. `pinwatch report --html pinwatch.html`');
  return resolve(ctx.io.cwd, flags.html);
}

export async function runReport(ctx: CommandContext, flags: ReportFlags): Promise<number> {
  const target = htmlTarget(ctx, flags);
  const now = new Date();
  const policy: StalePolicy = { failOnStale: parseFailOnStale(flags.failOnStale), maxAgeDays: parseMaxAge(flags.maxAge), now };
  const config = loadCommandConfig(ctx);
  const result = await checkRepo(ctx.global.repo, config, {
    policy,
    ...(flags.baseline !== undefined ? { baseline: flags.baseline } : {}),
    ...(flags.registry ? { registry: registryOptions(config, ctx.io.env, flags) } : {}),
  });
  const notes = [...config.origin.assumed.map((a) => `assumed: ${a}`), ...result.stale.notes];
  const html = formatHtmlReport({
    repo: ctx.global.repo,
    generatedAt: now.toISOString(),
    stale: { ...result.stale, notes },
    findings: result.findings,
    pins: result.lint.scan.pins,
  });
  writeFileAtomic(target, html);
  const active = result.findings.filter((f) => !f.suppressed).length;
  ctx.io.err(`wrote ${flags.html} (${result.stale.images.length} images, ${active} findings)\n`);
  return exitCodeFor(result.findings, ctx.global.failOn ?? 'error');
}
