/** `pinwatch lint`: placeholder until its issue lands. */
import type { CommandRegistrar } from '../main.js';
import { PinwatchError } from '../../errors.js';

export const registerLint: CommandRegistrar = (program, run) => {
  program
    .command('lint')
    .description('(not yet implemented)')
    .action(
      run(async () => {
        throw new PinwatchError('not-implemented', 'lint is not implemented yet');
      }),
    );
};
