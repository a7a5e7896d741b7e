/** `pinwatch explain`: placeholder until its issue lands. */
import type { CommandRegistrar } from '../main.js';
import { PinwatchError } from '../../errors.js';

export const registerExplain: CommandRegistrar = (program, run) => {
  program
    .command('explain')
    .description('(not yet implemented)')
    .action(
      run(async () => {
        throw new PinwatchError('not-implemented', 'explain is not implemented yet');
      }),
    );
};
