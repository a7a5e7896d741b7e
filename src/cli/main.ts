/**
 * The CLI entry: build the program (./program.ts), run it, and be the one exit
 * point. A command's body returns its exit code; a PinwatchError becomes one
 * clear line on stderr (`pinwatch: [code] file:line: message`, the codes in
 * docs/errors.md) and exit 2; anything else is an internal error (exit 2).
 */
import { CommanderError } from 'commander';
import { isPinwatchError, PinwatchError } from '../errors.js';
import type { Io } from './context.js';
import { processIo } from './context.js';
import { buildProgram } from './program.js';
import { terminalSafe } from '../report/sanitize.js';
import { describeWithFlagHint } from './flag-hint.js';

/** Run pinwatch with argv (without node and script). Returns the exit code; never throws. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const result = { code: 0 };
  const program = buildProgram(io, result, main);
  // `pinwatch` with no command, or only global options, runs `check`.
  const hasCommand = argv.some((a) => !a.startsWith('-') && program.commands.some((c) => c.name() === a || c.aliases().includes(a)));
  const wantsHelp = argv.some((a) => a === '-h' || a === '--help' || a === '-V' || a === '--version');
  const args = hasCommand || wantsHelp || argv.includes('help') ? argv : [...argv, 'check'];
  try {
    await program.parseAsync(args, { from: 'user' });
    return result.code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      return 2; // commander already printed the message
    }
    if (isPinwatchError(e)) {
      io.err(`pinwatch: ${terminalSafe(`[${e.code}] ${describeWithFlagHint(e)}`)}
`);
      return 2;
    }
    const err = e instanceof Error ? e : new Error(String(e));
    io.err(`pinwatch: internal error: ${terminalSafe(err.message)}\n`);
    if (io.env.PINWATCH_DEBUG) io.err(`${err.stack ?? ''}\n`);
    return 2;
  }
}

export { PinwatchError };
