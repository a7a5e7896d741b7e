/** What `pinwatch overlay` does when it runs (declared in ../program.ts, loaded only when it runs). */
import { resolve } from 'node:path';
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { appendStepSummary, emit } from '../output.js';
import { loadCommandConfig } from '../config.js';
import { PinwatchError } from '../../errors.js';
import { runOverlay, type OverlayReport } from '../../overlay/index.js';
import { skipSets, type SkipSetFlags } from '../flags/overlay.js';
import { formatOverlayGithub } from '../../report/overlay-github.js';
import { formatOverlayJson } from '../../report/overlay-json.js';
import { formatOverlayMarkdown } from '../../report/overlay-markdown.js';
import { formatOverlayText } from '../../report/overlay-text.js';
import { COMMAND_FORMATS } from '../formats.js';

export interface OverlayFlags extends SkipSetFlags {
  from?: string;
  at?: string;
  dryRun?: boolean;
  failOnDrift?: boolean;
  ignoreComments?: boolean;
  listSame?: boolean;
}

const FORMATS = COMMAND_FORMATS.overlay;

function render(report: OverlayReport, format: (typeof FORMATS)[number], flags: OverlayFlags): string {
  switch (format) {
    case 'json':
      return formatOverlayJson(report);
    case 'markdown':
      return formatOverlayMarkdown(report);
    case 'github':
      return formatOverlayGithub(report);
    default:
      return formatOverlayText(report, { listSame: flags.listSame });
  }
}

export async function runOverlayCommand(ctx: CommandContext, flags: OverlayFlags): Promise<number> {
  if (!flags.from) throw new PinwatchError('missing-option', 'overlay needs --from DIR: the extracted artifact tree whose pins name the images just built, like --from artifact/');
  const format = pickFormat(ctx, FORMATS, 'text');
  const config = await loadCommandConfig(ctx);
  const report = runOverlay({
    root: ctx.global.repo,
    from: resolve(ctx.io.cwd, flags.from),
    at: flags.at,
    config,
    skip: skipSets(flags),
    dryRun: flags.dryRun ?? false,
    ignoreComments: flags.ignoreComments ?? false,
  });
  emit(ctx, render(report, format, flags));
  if (format === 'github') appendStepSummary(ctx, formatOverlayMarkdown(report));
  return flags.failOnDrift && report.summary.drift > 0 ? 1 : 0;
}
