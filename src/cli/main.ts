/**
 * The CLI: parse flags, call the library, one exit point. Every command module
 * registers itself through `CommandRegistrar`; a command's action returns its
 * exit code. PinwatchError → one clear line on stderr and exit 2.
 */
import { Command, CommanderError, Option } from 'commander';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isPinwatchError, PinwatchError } from '../errors.js';
import type { CommandContext, FailOn, GlobalOptions, Io } from './context.js';
import { processIo } from './context.js';
import { COMMANDS } from './commands/index.js';
import { terminalSafe } from '../report/sanitize.js';

export type CommandAction = (ctx: CommandContext, ...args: any[]) => Promise<number>;
/** Wraps a command body so its exit code reaches main's single exit point. */
export type Runner = (action: CommandAction) => (...args: any[]) => Promise<void>;
export type CommandRegistrar = (program: Command, run: Runner) => void;

const VERSION = '0.1.0';

/**
 * Without --repo, the repository is found the way git finds it: the nearest
 * folder at or above the working directory that holds pinwatch.yaml or .git.
 */
export function findRepoRoot(cwd: string): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pinwatch.yaml')) || existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return resolve(cwd);
  }
}

function globalOptions(cmd: Command, io: Io): GlobalOptions {
  const o = cmd.optsWithGlobals() as Record<string, unknown>;
  const explicitRepo = cmd.getOptionValueSourceWithGlobals('repo') === 'cli';
  return {
    repo: explicitRepo ? resolve(io.cwd, o.repo as string) : findRepoRoot(io.cwd),
    config: o.config as string | undefined,
    format: o.format as string | undefined,
    output: o.output as string | undefined,
    failOn: o.failOn as FailOn | undefined,
    firstParty: (o.firstParty as string[] | undefined) ?? [],
  };
}

function buildProgram(io: Io, result: { code: number }): Command {
  const program = new Command('pinwatch');
  program
    .description('Every image pin in a GitOps monorepo: where it is, what is wrong with it, and which merged fixes it does not ship.')
    .version(VERSION)
    .option('--repo <dir>', 'repository root (default: the nearest folder at or above the working directory with pinwatch.yaml or .git)')
    .option('--config <file>', 'config file (default: pinwatch.yaml at the repo root)')
    .option('--format <format>', 'output format: text|json|sarif|markdown|github (per command)')
    .option('--output <file>', 'write the report to FILE (atomically) instead of stdout')
    .addOption(new Option('--fail-on <level>', 'exit 1 when a finding is at or above this level').choices(['error', 'warning', 'never']))
    .option('--first-party <prefix>', 'repository prefix this repo builds (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });

  const run: Runner = (action) => async (...args: any[]) => {
    const cmd = args[args.length - 1] as Command;
    const ctx: CommandContext = { global: globalOptions(cmd, io), io };
    result.code = await action(ctx, ...args.slice(0, -1));
  };
  for (const register of COMMANDS) register(program, run);
  for (const sub of program.commands) sub.exitOverride().configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
  return program;
}

/** Run pinwatch with argv (without node and script). Returns the exit code; never throws. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const result = { code: 0 };
  const program = buildProgram(io, result);
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
      io.err(`pinwatch: ${terminalSafe(e.describe())}\n`);
      return 2;
    }
    const err = e instanceof Error ? e : new Error(String(e));
    io.err(`pinwatch: internal error: ${terminalSafe(err.message)}\n`);
    if (io.env.PINWATCH_DEBUG) io.err(`${err.stack ?? ''}\n`);
    return 2;
  }
}

export { PinwatchError };
