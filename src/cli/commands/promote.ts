/** What `pinwatch promote` does when it runs (declared in ../program.ts, loaded only when it runs). */
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { appendStepSummary, emit } from '../output.js';
import { loadCommandConfig } from '../config.js';
import { PinwatchError } from '../../errors.js';
import { registryClientOptions, type RegistryFlags } from '../flags/registry.js';
import { promote, promoteExitCode, type PromoteResult } from '../../release/index.js';
import { formatPromoteJson } from '../../report/release-json.js';
import { formatPromoteGithub, formatPromoteMarkdown } from '../../report/release-markdown.js';
import { formatPromoteText } from '../../report/release-text.js';
import { COMMAND_FORMATS } from '../formats.js';

const FORMATS = COMMAND_FORMATS.promote;

export interface PromoteFlags extends RegistryFlags {
  tag?: string;
  move?: string[];
  forceMove?: boolean;
  rewrite?: boolean;
  fromTag?: string;
  dryRun?: boolean;
}

function render(r: PromoteResult, format: (typeof FORMATS)[number]): string {
  if (format === 'json') return formatPromoteJson(r);
  if (format === 'markdown') return formatPromoteMarkdown(r);
  if (format === 'github') return formatPromoteGithub(r);
  return formatPromoteText(r, { diff: r.dryRun });
}

export async function runPromote(ctx: CommandContext, flags: PromoteFlags): Promise<number> {
  if (!flags.tag) throw new PinwatchError('missing-option', 'promote needs --tag TAG: the release tag to give every pinned first-party digest, like --tag v1.2.0');
  if (flags.fromTag !== undefined && !flags.rewrite) throw new PinwatchError('conflicting-options', `--from-tag ${flags.fromTag} only narrows --rewrite; add --rewrite, or drop --from-tag`);
  const format = pickFormat(ctx, FORMATS, 'text');
  const config = await loadCommandConfig(ctx);
  const result = await promote({
    root: ctx.global.repo,
    config,
    tag: flags.tag,
    move: flags.move ?? [],
    forceMove: flags.forceMove === true,
    rewrite: flags.rewrite === true,
    ...(flags.fromTag !== undefined ? { fromTag: flags.fromTag } : {}),
    dryRun: flags.dryRun === true,
    registry: registryClientOptions(ctx.io.env, flags, config.insecureRegistries),
  });
  emit(ctx, render(result, format));
  if (format === 'github') appendStepSummary(ctx, formatPromoteMarkdown(result));
  return promoteExitCode(result);
}
