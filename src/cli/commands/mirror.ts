/** What `pinwatch mirror` does when it runs (declared in ../program.ts, loaded only when it runs). */
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { appendStepSummary, emit } from '../output.js';
import { loadCommandConfig } from '../config.js';
import { PinwatchError } from '../../errors.js';
import { registryClientOptions, type RegistryFlags } from '../flags/registry.js';
import { mirror, mirrorExitCode, type MirrorResult } from '../../release/index.js';
import { formatMirrorJson } from '../../report/release-json.js';
import { formatMirrorGithub, formatMirrorMarkdown } from '../../report/release-markdown.js';
import { formatMirrorText } from '../../report/release-text.js';
import { COMMAND_FORMATS } from '../formats.js';

const FORMATS = COMMAND_FORMATS.mirror;

export interface MirrorFlags extends RegistryFlags {
  from?: string;
  to?: string;
  tag?: string[];
  referrers?: boolean;
  rewrite?: boolean;
  dryRun?: boolean;
}

function render(r: MirrorResult, format: (typeof FORMATS)[number]): string {
  if (format === 'json') return formatMirrorJson(r);
  if (format === 'markdown') return formatMirrorMarkdown(r);
  if (format === 'github') return formatMirrorGithub(r);
  return formatMirrorText(r, { diff: r.dryRun });
}

export async function runMirror(ctx: CommandContext, flags: MirrorFlags): Promise<number> {
  if (!flags.from || !flags.to) throw new PinwatchError('missing-option', 'mirror needs --from PREFIX and --to PREFIX, like --from ghcr.io/acme/ci --to registry.example.com/acme');
  const format = pickFormat(ctx, FORMATS, 'text');
  const config = await loadCommandConfig(ctx);
  const result = await mirror({
    root: ctx.global.repo,
    config,
    from: flags.from,
    to: flags.to,
    ...(flags.tag && flags.tag.length > 0 ? { tags: flags.tag } : {}),
    referrers: flags.referrers === true,
    rewrite: flags.rewrite === true,
    dryRun: flags.dryRun === true,
    registry: registryClientOptions(ctx.io.env, flags, config.insecureRegistries),
  });
  emit(ctx, render(result, format));
  if (format === 'github') appendStepSummary(ctx, formatMirrorMarkdown(result));
  return mirrorExitCode(result);
}
