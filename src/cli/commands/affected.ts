/** What `pinwatch affected` does when it runs (declared in ../program.ts, loaded only when it runs). */
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { emit } from '../output.js';
import { loadCommandConfig } from '../config.js';
import { PinwatchError } from '../../errors.js';
import { affectedReport } from '../../affected/index.js';
import { formatAffectedJson } from '../../report/affected-json.js';
import { formatAffectedText } from '../../report/affected-text.js';
import { say } from '../stderr.js';
import { COMMAND_FORMATS } from '../formats.js';

const FORMATS = COMMAND_FORMATS.affected;

export interface AffectedFlags {
  base?: string;
  unknown?: string;
}

export async function runAffected(ctx: CommandContext, flags: AffectedFlags): Promise<number> {
  const format = pickFormat(ctx, FORMATS, 'json');
  if (!flags.base) throw new PinwatchError('missing-option', '--base REV is required (the revision to compare with, e.g. origin/main)');
  const unknown = flags.unknown ?? 'include';
  if (unknown !== 'include' && unknown !== 'exclude') throw new PinwatchError('invalid-unknown-mode', `--unknown must be include or exclude, like --unknown exclude; saw "${unknown}"`);
  const { repo } = ctx.global;
  const config = await loadCommandConfig(ctx);
  const result = await affectedReport(repo, config, flags.base, { includeUnknown: unknown === 'include' });
  if (format === 'json') {
    emit(ctx, formatAffectedJson(result));
    for (const u of result.unknown) say(ctx, `pinwatch: ${u.image}: build inputs unknown (${unknown === 'include' ? 'listed to be safe' : 'left out'}): ${u.reason}\n`);
  } else emit(ctx, formatAffectedText(result));
  return 0;
}
