/** `pinwatch inspect`: placeholder until its issue lands. */
import type { CommandRegistrar } from '../main.js';
import { PinwatchError } from '../../errors.js';

export const registerInspect: CommandRegistrar = (program, run) => {
  program
    .command('inspect')
    .description('(not yet implemented)')
    .action(
      run(async () => {
        throw new PinwatchError('not-implemented', 'inspect is not implemented yet');
      }),
    );
};
