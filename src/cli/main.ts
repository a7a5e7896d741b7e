/**
 * The CLI entry: build the program (./program.ts), run it, and be the one exit
 * point. A command's body returns its exit code; a PinwatchError becomes one
 * clear line on stderr (`pinwatch: [code] file:line: message`, the codes in
 * docs/errors.md) and exit 2; anything else is an internal error (exit 2).
 * `pinwatch --version` alone prints the version without loading commander or
 * the program (start-up is most of its cost); everything else loads them.
 */
import type { Command } from 'commander';
import { isPinwatchError, PinwatchError } from '../errors.js';
import type { Io } from './context.js';
import { processIo } from './context.js';
import { terminalSafe } from '../report/sanitize.js';
import { describeWithFlagHint } from './flag-hint.js';
import { VERSION } from './version.js';

/**
 * The first bare word before any option the program does not know (a command
 * name, or a mistyped one), skipping the values of the program's own options
 * (`--repo DIR`); undefined when there is none.
 */
function leadingWord(program: Command, argv: readonly string[]): string | undefined {
  const takesValue = new Set(program.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short].filter((f): f is string => !!f)));
  const known = new Set(program.options.flatMap((o) => [o.long, o.short].filter((f): f is string => !!f)));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('-')) return a;
    const flag = a.split('=')[0]!;
    if (!known.has(flag)) return undefined; // a command's own option: no command was named
    if (takesValue.has(flag) && !a.includes('=')) i++;
  }
  return undefined;
}

/** Run pinwatch with argv (without node and script). Returns the exit code; never throws. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.out(`${VERSION}\n`); // what commander's .version() prints
    return 0;
  }
  const [{ CommanderError }, { buildProgram }] = await Promise.all([import('commander'), import('./program.js')]);
  const result = { code: 0 };
  const program = buildProgram(io, result, main);
  // `pinwatch` with no command, or only global options, runs `check`: put in front, so
  // check's own flags (--fail-on-stale, --baseline, …) parse as check's. A bare word that
  // is not a command is left for commander to call an unknown command (with "did you mean").
  const wantsHelp = argv.some((a) => a === '-h' || a === '--help' || a === '-V' || a === '--version');
  const args = wantsHelp || leadingWord(program, argv) !== undefined ? argv : ['check', ...argv];
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
