/** A captured Io for running the CLI in-process: what it printed, and the exit code. */
import type { Io } from '../../src/cli/context.js';
import { main } from '../../src/cli/main.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export function captureIo(env: Record<string, string | undefined> = {}, cwd = process.cwd()): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => void stdout.push(t), err: (t) => void stderr.push(t), env, cwd };
}

/** Run `pinwatch ARGV` in-process. */
export async function runCli(argv: string[], options: { env?: Record<string, string | undefined>; cwd?: string } = {}): Promise<CliRun> {
  const io = captureIo(options.env ?? {}, options.cwd);
  const code = await main(argv, io);
  return { code, out: io.stdout.join(''), err: io.stderr.join('') };
}
