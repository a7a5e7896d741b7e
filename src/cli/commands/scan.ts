/** `pinwatch scan`: placeholder until its issue lands. */
import type { CommandRegistrar } from '../main.js';
import { PinwatchError } from '../../errors.js';

export const registerScan: CommandRegistrar = (program, run) => {
  program
    .command('scan')
    .description('(not yet implemented)')
    .action(
      run(async () => {
        throw new PinwatchError('not-implemented', 'scan is not implemented yet');
      }),
    );
};
