/** `pinwatch check`: placeholder until its issue lands. */
import type { CommandRegistrar } from '../main.js';
import { PinwatchError } from '../../errors.js';

export const registerCheck: CommandRegistrar = (program, run) => {
  program
    .command('check')
    .description('(not yet implemented)')
    .action(
      run(async () => {
        throw new PinwatchError('not-implemented', 'check is not implemented yet');
      }),
    );
};
