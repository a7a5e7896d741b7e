/** `pinwatch scan`: every pin in the tree, all shapes, with form and first-party flag. */
import type { CommandRegistrar } from '../main.js';
import type { CommandContext } from '../context.js';

export const registerScan: CommandRegistrar = (program, run) => {
  program
    .command('scan')
    .description('list every image pin in the tree (all storage shapes), with its form and first-party flag')
    .configureHelp({ showGlobalOptions: true })
    .addHelpText('after', '\nFormats: text (default), json (schemas/scan-output.schema.json). Exit 0 after a scan, 2 on a usage or config error.')
    .action(
      run(async (ctx: CommandContext) => {
        const { runScan } = await import('./scan.run.js');
        return runScan(ctx);
      }),
    );
};
