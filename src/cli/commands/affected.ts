/** `pinwatch affected`: placeholder until its issue lands. */
import type { CommandRegistrar } from '../main.js';
import { PinwatchError } from '../../errors.js';

export const registerAffected: CommandRegistrar = (program, run) => {
  program
    .command('affected')
    .description('(not yet implemented)')
    .action(
      run(async () => {
        throw new PinwatchError('not-implemented', 'affected is not implemented yet');
      }),
    );
};
