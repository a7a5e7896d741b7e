/** What `pinwatch scan` does when it runs (declared in ../program.ts, loaded only when it runs). */
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { emit } from '../output.js';
import { loadCommandConfig } from '../config.js';
import { scanRepo } from '../../scan/index.js';
import { formatScanJson } from '../../report/scan-json.js';
import { formatScanText } from '../../report/scan-text.js';
import { COMMAND_FORMATS } from '../formats.js';

const FORMATS = COMMAND_FORMATS.scan;

export interface ScanFlags {
  kustomize?: boolean;
}

export async function runScan(ctx: CommandContext, flags: ScanFlags = {}): Promise<number> {
  const format = pickFormat(ctx, FORMATS, 'text');
  const { repo } = ctx.global;
  const config = await loadCommandConfig(ctx);
  const result = await scanRepo(repo, config);
  emit(ctx, format === 'json' ? formatScanJson(result) : formatScanText(result, { kustomize: flags.kustomize === true }));
  return 0;
}
