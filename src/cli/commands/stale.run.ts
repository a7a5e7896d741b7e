/** What `pinwatch stale` does when it runs (loaded on demand by ./stale.ts). */
import { emit, pickFormat, type CommandContext } from '../context.js';
import { loadCommandConfig } from '../config.js';
import { registryOptions } from '../../stale/registry-options.js';
import type { RegistryFlags } from '../../registry/options.js';
import { staleReport } from '../../stale/report.js';
import { parseFailOnStale, parseMaxAge, staleExitCode, type StalePolicy } from '../../stale/policy.js';
import { STALE_RULES, staleFindings } from '../../stale/findings.js';
import { formatStaleJson } from '../../report/stale-json.js';
import { formatStaleText } from '../../report/stale-text.js';
import { formatStaleMarkdown } from '../../report/stale-markdown.js';
import { formatFindings } from '../../report/findings-format.js';

const FORMATS = ['text', 'json', 'markdown', 'github', 'sarif'] as const;

export interface StaleFlags extends RegistryFlags {
  failOnStale?: string;
  maxAge?: string;
  registry?: boolean;
}

export async function runStale(ctx: CommandContext, images: string[], flags: StaleFlags): Promise<number> {
  const format = pickFormat(ctx, FORMATS, 'text');
  const policy: StalePolicy = { failOnStale: parseFailOnStale(flags.failOnStale), maxAgeDays: parseMaxAge(flags.maxAge), now: new Date() };
  const { repo } = ctx.global;
  const config = loadCommandConfig(ctx);
  const report = await staleReport(repo, config, { only: images, now: policy.now, ...(flags.registry ? { registry: registryOptions(config, ctx.io.env, flags) } : {}) });
  if (format === 'json') emit(ctx, formatStaleJson(report));
  else if (format === 'text') emit(ctx, formatStaleText(report));
  else if (format === 'markdown') emit(ctx, formatStaleMarkdown(report));
  else emit(ctx, formatFindings(format, staleFindings(report, policy), { title: 'pinwatch stale', rules: STALE_RULES, root: repo, notes: [...report.warnings, ...report.notes] }));
  // The global --fail-on never also silences stale (check runs lint and stale under one switch).
  return ctx.global.failOn === 'never' ? 0 : staleExitCode(report, policy);
}
