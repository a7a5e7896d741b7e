/**
 * Git through child_process with argument arrays (never a shell string). Every
 * history read in pinwatch goes through here, so counting calls is easy.
 */
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { PinwatchError } from '../errors.js';

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface GitOptions {
  /** Exit codes that are answers, not failures (e.g. 1 for `merge-base --is-ancestor`). */
  okCodes?: number[];
  input?: string;
  env?: Record<string, string>;
}

/** Counts git processes started, for tests and benchmarks that check the pass count. */
export const gitStats = { processes: 0 };

export function runGit(cwd: string, args: string[], options: GitOptions = {}): Promise<GitResult> {
  return runGitBytes(cwd, args, options).then((r) => ({ ...r, stdout: r.stdout.toString('utf8') }));
}

/** `runGit` with stdout as bytes, for output framed by byte counts (`cat-file --batch`). */
export function runGitBytes(cwd: string, args: string[], options: GitOptions = {}): Promise<Omit<GitResult, 'stdout'> & { stdout: Buffer }> {
  gitStats.processes++;
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) =>
      reject(new PinwatchError('git-unavailable', `could not run git: ${e.message}; expected a git executable on PATH`, {}, { cause: e })),
    );
    child.on('close', (code) => {
      resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), code: code ?? -1 });
    });
    // git may exit before reading its stdin (EPIPE); its exit code tells what happened.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** Run git and return stdout; a non-zero exit not listed in okCodes throws PinwatchError('git-failed'). */
export async function git(cwd: string, args: string[], options: GitOptions = {}): Promise<string> {
  const r = await runGit(cwd, args, options);
  if (r.code !== 0 && !(options.okCodes ?? []).includes(r.code)) {
    throw new PinwatchError('git-failed', `git ${args.slice(0, 3).join(' ')} failed (exit ${r.code}): ${r.stderr.trim().split('\n')[0] ?? ''}`);
  }
  return r.stdout;
}

/** `merge-base --is-ancestor`: exit 0 = yes, 1 = no, anything else is an error. */
export async function isAncestor(cwd: string, ancestor: string, descendant: string): Promise<boolean> {
  const r = await runGit(cwd, ['merge-base', '--is-ancestor', ancestor, descendant]);
  if (r.code === 0) return true;
  if (r.code === 1) return false;
  throw new PinwatchError('git-failed', `git merge-base --is-ancestor ${ancestor} ${descendant} failed (exit ${r.code}): ${r.stderr.trim()}`);
}

/** Start a long-lived git process (a streamed `log`, a `cat-file --batch` fed as it goes), counted like the others. */
export function spawnGit(cwd: string, args: string[], options?: Pick<GitOptions, 'env'>): ChildProcessWithoutNullStreams;
/** … with stdout written straight into the open file `stdout` (git then never waits on a pipe). */
export function spawnGit(cwd: string, args: string[], options: Pick<GitOptions, 'env'>, stdout: number): ChildProcess;
export function spawnGit(cwd: string, args: string[], options: Pick<GitOptions, 'env'> = {}, stdout?: number): ChildProcess {
  gitStats.processes++;
  return spawn('git', args, {
    cwd,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...options.env },
    stdio: ['pipe', stdout ?? 'pipe', 'pipe'],
  });
}
