/** A captured Io for running the CLI in-process: what it printed, and the exit code. */
import type { Io } from '../../src/cli/context.js';
import { main } from '../../src/cli/main.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** A fake terminal: stdout a TTY of `columns` (when given), stderr a TTY when `stderr`. */
export interface FakeTty {
  columns?: number;
  stderr?: boolean;
}

export function captureIo(env: Record<string, string | undefined> = {}, cwd = process.cwd(), tty?: FakeTty): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const terminal = tty ? { stdoutTerminal: { isTTY: true, ...(tty.columns ? { columns: tty.columns } : {}) }, stderrIsTTY: tty.stderr === true } : {};
  return { stdout, stderr, out: (t) => void stdout.push(t), err: (t) => void stderr.push(t), env, cwd, ...terminal };
}

/** Run `pinwatch ARGV` in-process (on a fake TTY with `tty`). */
export async function runCli(argv: string[], options: { env?: Record<string, string | undefined>; cwd?: string; tty?: FakeTty } = {}): Promise<CliRun> {
  const io = captureIo(options.env ?? {}, options.cwd, options.tty);
  const code = await main(argv, io);
  return { code, out: io.stdout.join(''), err: io.stderr.join('') };
}
