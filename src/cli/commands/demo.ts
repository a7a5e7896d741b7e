/** `pinwatch demo`: placeholder until its issue lands. */
import type { CommandRegistrar } from '../main.js';
import { PinwatchError } from '../../errors.js';

export const registerDemo: CommandRegistrar = (program, run) => {
  program
    .command('demo')
    .description('(not yet implemented)')
    .action(
      run(async () => {
        throw new PinwatchError('not-implemented', 'demo is not implemented yet');
      }),
    );
};
