/** What `pinwatch compare` does when it runs (declared in ../program.ts, loaded only when it runs). */
import { resolve } from 'node:path';
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { appendStepSummary, emit } from '../output.js';
import { loadCommandConfig } from '../config.js';
import { PinwatchError } from '../../errors.js';
import { compare, compareExitCode, type CompareResult } from '../../release/index.js';
import { formatCompareJson } from '../../report/release-json.js';
import { formatCompareGithub, formatCompareMarkdown } from '../../report/release-markdown.js';
import { formatCompareText } from '../../report/release-text.js';
import { COMMAND_FORMATS } from '../formats.js';

const FORMATS = COMMAND_FORMATS.compare;

export interface CompareFlags {
  from?: string;
  allowDigests?: boolean;
  allowDrift?: boolean;
  listSame?: boolean;
}

function render(r: CompareResult, format: (typeof FORMATS)[number], flags: CompareFlags): string {
  if (format === 'json') return formatCompareJson(r);
  if (format === 'markdown') return formatCompareMarkdown(r);
  if (format === 'github') return formatCompareGithub(r);
  return formatCompareText(r, { listSame: flags.listSame });
}

export async function runCompare(ctx: CommandContext, flags: CompareFlags): Promise<number> {
  if (!flags.from) throw new PinwatchError('missing-option', 'compare needs --from DIR: the tree to compare with (an extracted artifact or another checkout), like --from ../release-candidate');
  const format = pickFormat(ctx, FORMATS, 'text');
  const config = await loadCommandConfig(ctx);
  const result = compare({ root: ctx.global.repo, from: resolve(ctx.io.cwd, flags.from), config });
  emit(ctx, render(result, format, flags));
  if (format === 'github') appendStepSummary(ctx, formatCompareMarkdown(result));
  return compareExitCode(result, flags);
}
