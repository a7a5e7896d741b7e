/** What `pinwatch overlay` does when it runs (loaded on demand by ./overlay.ts). */
import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { emit, pickFormat, type CommandContext } from '../context.js';
import { loadCommandConfig } from '../config.js';
import { PinwatchError } from '../../errors.js';
import { runOverlay } from '../../overlay/engine.js';
import { parseDirList, type SkipSets } from '../../overlay/skip-sets.js';
import type { OverlayReport } from '../../overlay/types.js';
import { formatOverlayGithub } from '../../report/overlay-github.js';
import { formatOverlayJson } from '../../report/overlay-json.js';
import { formatOverlayMarkdown } from '../../report/overlay-markdown.js';
import { formatOverlayText } from '../../report/overlay-text.js';

export interface OverlayFlags {
  from?: string;
  at?: string;
  built?: string[];
  touched?: string[];
  owned?: string[];
  dryRun?: boolean;
  failOnDrift?: boolean;
  ignoreComments?: boolean;
  listSame?: boolean;
}

const FORMATS = ['text', 'json', 'markdown', 'github'] as const;

function skipSets(flags: OverlayFlags): SkipSets {
  return {
    built: (flags.built ?? []).flatMap((v) => parseDirList(v, '--built')),
    touched: (flags.touched ?? []).flatMap((v) => parseDirList(v, '--touched')),
    owned: (flags.owned ?? []).flatMap((v) => parseDirList(v, '--owned')),
  };
}

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

/** Append the markdown job summary to $GITHUB_STEP_SUMMARY (format github only). */
function appendStepSummary(ctx: CommandContext, report: OverlayReport): void {
  const path = ctx.io.env.GITHUB_STEP_SUMMARY;
  if (!path) return;
  try {
    appendFileSync(path, `${formatOverlayMarkdown(report)}\n`);
  } catch (e) {
    ctx.io.err(`pinwatch overlay: cannot append the job summary to GITHUB_STEP_SUMMARY=${path}: ${(e as Error).message}\n`);
  }
}

export async function runOverlayCommand(ctx: CommandContext, flags: OverlayFlags): Promise<number> {
  if (!flags.from) throw new PinwatchError('usage', 'overlay needs --from DIR: the extracted artifact tree whose pins name the images just built');
  const format = pickFormat(ctx, FORMATS, 'text');
  const config = loadCommandConfig(ctx);
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
  if (format === 'github') appendStepSummary(ctx, report);
  return flags.failOnDrift && report.summary.drift > 0 ? 1 : 0;
}
