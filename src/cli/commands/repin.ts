/** `pinwatch repin`: placeholder until its issue lands. */
import type { CommandRegistrar } from '../main.js';
import { PinwatchError } from '../../errors.js';

export const registerRepin: CommandRegistrar = (program, run) => {
  program
    .command('repin')
    .description('(not yet implemented)')
    .action(
      run(async () => {
        throw new PinwatchError('not-implemented', 'repin is not implemented yet');
      }),
    );
};
