/** `pinwatch overlay`: placeholder until its issue lands. */
import type { CommandRegistrar } from '../main.js';
import { PinwatchError } from '../../errors.js';

export const registerOverlay: CommandRegistrar = (program, run) => {
  program
    .command('overlay')
    .description('(not yet implemented)')
    .action(
      run(async () => {
        throw new PinwatchError('not-implemented', 'overlay is not implemented yet');
      }),
    );
};
