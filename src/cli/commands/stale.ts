/** `pinwatch stale`: placeholder until its issue lands. */
import type { CommandRegistrar } from '../main.js';
import { PinwatchError } from '../../errors.js';

export const registerStale: CommandRegistrar = (program, run) => {
  program
    .command('stale')
    .description('(not yet implemented)')
    .action(
      run(async () => {
        throw new PinwatchError('not-implemented', 'stale is not implemented yet');
      }),
    );
};
