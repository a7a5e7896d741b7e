/**
 * What every command gets: the global options and the streams to write to
 * (injectable, so tests run the CLI in-process). Reports go out through
 * ./output.ts.
 */
import type { FailOn } from '../model/index.js';
import type { Detail, TerminalInfo } from '../report/style.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** All of stdin, for `--pods -` and `triage -` (absent where there is none). */
  readStdin?: () => Promise<string>;
  /** stdout's terminal (colour and width of text reports); absent = not a TTY. */
  stdoutTerminal?: TerminalInfo;
  /** stderr is a TTY: progress lines may be drawn there. */
  stderrIsTTY?: boolean;
}

export interface GlobalOptions {
  /** Absolute path of the repository root. */
  repo: string;
  config?: string;
  format?: string;
  output?: string;
  failOn?: FailOn;
  firstParty: string[];
  /** --quiet (summary and exit code) or --verbose; `normal` without either. */
  detail?: Detail;
  /** Set when no on-disk cache is read or written this run (the repository's and the registry's), and by what. */
  noCache?: '--no-cache' | 'PINWATCH_NO_CACHE';
}

export interface CommandContext {
  global: GlobalOptions;
  io: Io;
}

/**
 * The real streams. A reader that stops early (`pinwatch scan | head`) closes the
 * pipe: the rest of the output is dropped quietly instead of an EPIPE stack trace.
 */
export function processIo(): Io {
  let stdoutClosed = false;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    stdoutClosed = true;
  });
  return {
    out: (t) => void (stdoutClosed || process.stdout.write(t)),
    err: (t) => process.stderr.write(t),
    env: process.env,
    cwd: process.cwd(),
    stdoutTerminal: { isTTY: process.stdout.isTTY === true, ...(process.stdout.columns ? { columns: process.stdout.columns } : {}) },
    stderrIsTTY: process.stderr.isTTY === true,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/** `pinwatch ARGV` run again in-process (the demo runs `check` on the repo it builds). */
export type Rerun = (argv: string[], io: Io) => Promise<number>;
