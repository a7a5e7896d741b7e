/**
 * What every command gets: the global options, the streams to write to, and
 * `emit` for the report (stdout or --output FILE, written atomically).
 */
import { resolve } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { PinwatchError } from '../errors.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
}

export type FailOn = 'error' | 'warning' | 'never';

export interface GlobalOptions {
  /** Absolute path of the repository root. */
  repo: string;
  config?: string;
  format?: string;
  output?: string;
  failOn?: FailOn;
  firstParty: string[];
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
  };
}

/** Write a report to --output (atomically) or stdout, with a trailing newline. */
export function emit(ctx: CommandContext, text: string): void {
  const body = text.endsWith('\n') ? text : `${text}\n`;
  if (ctx.global.output) writeFileAtomic(resolve(ctx.io.cwd, ctx.global.output), body);
  else ctx.io.out(body);
}

/** Check --format against what a command supports; usage error (exit 2) otherwise. */
export function pickFormat<T extends string>(ctx: CommandContext, allowed: readonly T[], fallback: T): T {
  const f = ctx.global.format ?? fallback;
  if (!(allowed as readonly string[]).includes(f)) {
    throw new PinwatchError('usage', `--format must be one of ${allowed.join(', ')} for this command; saw "${f}"`);
  }
  return f as T;
}
