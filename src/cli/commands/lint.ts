/**
 * `pinwatch lint`: the invariants. Thin: flags → lintRepo → formatter → exit code.
 * `--write-baseline [FILE]` records today's findings so only new ones fail.
 */
import { Option } from 'commander';
import type { CommandRegistrar } from '../main.js';
import type { CommandContext } from '../context.js';
import { DEFAULT_BASELINE_FILE } from '../../lint/baseline.js';
import type { LintFlags } from './lint.run.js';

export const registerLint: CommandRegistrar = (program, run) => {
  program
    .command('lint')
    .description('check the pin invariants: tag+digest, no latest, one digest per repository, one built producer per key, lockstep keys')
    .addOption(new Option('--write-baseline [file]', `record the current findings in a baseline (default: config baseline or ${DEFAULT_BASELINE_FILE}) and exit 0`))
    .option('--baseline <file>', 'baseline file to apply (default: config baseline, else .pinwatch-baseline.json when present)')
    .option('--no-baseline', 'ignore any baseline: report every finding')
    .action(
      run(async (ctx: CommandContext, flags: LintFlags) => {
        const { runLint } = await import('./lint.run.js');
        return runLint(ctx, flags);
      }),
    );
};
