/** `pinwatch scan`: every pin in the tree, all shapes, with form and first-party flag. */
import type { CommandRegistrar } from '../main.js';
import { emit, pickFormat, type CommandContext } from '../context.js';
import { loadCommandConfig } from '../config.js';
import { scanRepo } from '../../scan/scan.js';
import { formatScanJson } from '../../report/scan-json.js';
import { formatScanText } from '../../report/scan-text.js';

const FORMATS = ['text', 'json'] as const;

async function runScan(ctx: CommandContext): Promise<number> {
  const format = pickFormat(ctx, FORMATS, 'text');
  const { repo } = ctx.global;
  const config = loadCommandConfig(ctx);
  const result = await scanRepo(repo, config);
  emit(ctx, format === 'json' ? formatScanJson(result) : formatScanText(result));
  return 0;
}

export const registerScan: CommandRegistrar = (program, run) => {
  program
    .command('scan')
    .description('list every image pin in the tree (all storage shapes), with its form and first-party flag')
    .configureHelp({ showGlobalOptions: true })
    .addHelpText('after', '\nFormats: text (default), json (schemas/scan-output.schema.json). Exit 0 after a scan, 2 on a usage or config error.')
    .action(run(async (ctx: CommandContext) => runScan(ctx)));
};
