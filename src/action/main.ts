/**
 * The GitHub Action's entry (action.yml runs bin/pinwatch-action.js): reads the
 * inputs (`INPUT_*`) and the event (`GITHUB_EVENT_NAME`, `GITHUB_EVENT_PATH`),
 * refuses a shallow checkout with the `fetch-depth: 0` fix, turns a pull_request
 * into PR mode (`check --base <the PR's base sha>`) and a push into `affected
 * --base <event.before>`, then runs the CLI in-process with `--format github`
 * (capped annotations, job summary, step outputs) and sets `affected-matrix`.
 * All decisions are here; the CLI does the work: its `main` is passed in by
 * bin/pinwatch-action.js (only cli/ imports cli/).
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runGit } from '../git/run.js';

export type Env = Record<string, string | undefined>;

/** The streams, as the CLI's Io (src/cli/context.ts) has them. */
export interface ActionIo {
  out(text: string): void;
  err(text: string): void;
  env: Env;
  cwd: string;
}

/** The CLI's `main` (src/cli/main.ts): argv in, exit code out, output through io. */
export type CliMain = (argv: string[], io: ActionIo) => Promise<number>;

/** Append step outputs to `$GITHUB_OUTPUT` (heredoc form), as the CLI does for its counts. */
function setOutputs(env: Env, cwd: string, outputs: Record<string, string | number>): void {
  const path = env.GITHUB_OUTPUT;
  if (!path) return;
  const delimiter = `pinwatch_${randomBytes(8).toString('hex')}`;
  appendFileSync(resolve(cwd, path), Object.entries(outputs).map(([k, v]) => `${k}<<${delimiter}\n${String(v)}\n${delimiter}\n`).join(''));
}

/** Commands that read history: a shallow checkout cannot answer them. */
const HISTORY_COMMANDS = new Set(['check', 'stale', 'explain', 'affected', 'report']);
/** Commands whose findings become annotations (`--format github`). */
const FINDINGS_COMMANDS = new Set(['check', 'lint', 'stale']);
const ZERO_SHA = /^0+$/;

/** INPUT_ARGS split like a shell would split plain words and quoted strings (no expansion). */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const m of text.matchAll(re)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3]!));
  return out;
}

/**
 * An input as the runner passes it, trimmed ('' when unset): `INPUT_<NAME>` upper-cased
 * with spaces as `_` (a JavaScript action's `INPUT_FAIL-ON`), or with `-` as `_` too
 * (action.yml's composite step sets `INPUT_FAIL_ON`).
 */
export function input(env: Env, name: string): string {
  const key = `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
  return (env[key] ?? env[key.replace(/-/g, '_')] ?? '').trim();
}

interface Event {
  name: string;
  payload: Record<string, any>;
}

function readEvent(env: Env): Event {
  const name = env.GITHUB_EVENT_NAME ?? '';
  const path = env.GITHUB_EVENT_PATH;
  if (!path) return { name, payload: {} };
  try {
    return { name, payload: JSON.parse(readFileSync(path, 'utf8')) as Record<string, any> };
  } catch (e) {
    throw new Error(`GITHUB_EVENT_PATH ${JSON.stringify(path)} is not a readable JSON event: ${(e as Error).message}`);
  }
}

/** The revision to compare with, from the event; undefined when the event has none. */
export function eventBase(event: Event, command: string): { base?: string; note?: string } {
  const pr = event.payload.pull_request as { base?: { sha?: string; ref?: string } } | undefined;
  if ((event.name === 'pull_request' || event.name === 'pull_request_target') && pr?.base?.sha) {
    return { base: pr.base.sha, note: `pull_request: comparing with its base ${pr.base.ref ?? ''} ${pr.base.sha.slice(0, 10)}`.replace('  ', ' ') };
  }
  if (event.name === 'push' && command === 'affected') {
    const before = event.payload.before as string | undefined;
    if (before && !ZERO_SHA.test(before)) return { base: before, note: `push: comparing with the previous tip ${before.slice(0, 10)}` };
    const branch = (event.payload.repository as { default_branch?: string } | undefined)?.default_branch;
    if (branch) return { base: `origin/${branch}`, note: `push of a new branch (no previous tip): comparing with origin/${branch}` };
  }
  return {};
}

const has = (args: readonly string[], flag: string) => args.some((a) => a === flag || a.startsWith(`${flag}=`));

/** The CLI argv the inputs and the event ask for. Throws on inputs that do not fit the command. */
export function actionArgv(env: Env, event: Event): { argv: string[]; notes: string[] } {
  const command = input(env, 'command') || 'check';
  const args = splitArgs(input(env, 'args'));
  const argv = [command];
  const notes: string[] = [];
  const config = input(env, 'config');
  if (config) argv.push('--config', config);
  const failOn = input(env, 'fail-on');
  if (failOn) argv.push('--fail-on', failOn);
  if ((command === 'check' || command === 'affected') && !has(args, '--base')) {
    const { base, note } = eventBase(event, command);
    if (base) argv.push('--base', base);
    if (note) notes.push(note);
    if (command === 'affected' && !base) throw new Error(`affected needs a base: this ${event.name || 'run'} event names none; pass args: --base REV`);
  }
  if (!has(args, '--format')) {
    if (FINDINGS_COMMANDS.has(command)) argv.push('--format', 'github');
    else if (command === 'affected') argv.push('--format', 'json');
  }
  for (const name of ['sarif', 'html'] as const) {
    const path = input(env, name);
    if (!path) continue;
    if (command !== 'check') throw new Error(`the ${name} input works with command: check (this step runs ${command})`);
    argv.push(`--${name}`, path);
  }
  return { argv: [...argv, ...args], notes };
}

/** `::error …` with the one fix, when the checkout is shallow (every history answer would be unknown). */
async function shallowRefusal(workspace: string): Promise<string | undefined> {
  const r = await runGit(workspace, ['rev-parse', '--is-shallow-repository']);
  if (r.code !== 0 || r.stdout.trim() !== 'true') return undefined;
  return '::error title=pinwatch%3A shallow checkout::the checkout is shallow, so pinwatch cannot tell which commits the pinned images lack. Set fetch-depth: 0 on actions/checkout (uses: actions/checkout@v4 with: fetch-depth: 0), or pass args: --allow-shallow to accept unjudged images';
}

/** Run the action; returns the exit code. `io.out` receives the workflow commands and reports. */
export async function runAction(env: Env, io: ActionIo, main: CliMain): Promise<number> {
  const workspace = resolve(io.cwd, env.GITHUB_WORKSPACE ?? '.');
  let plan: { argv: string[]; notes: string[] };
  try {
    plan = actionArgv(env, readEvent(env));
  } catch (e) {
    io.out(`::error title=pinwatch%3A action input::${(e as Error).message}\n`);
    return 2;
  }
  const command = plan.argv[0]!;
  if (HISTORY_COMMANDS.has(command) && !has(plan.argv, '--allow-shallow')) {
    const refusal = await shallowRefusal(workspace);
    if (refusal) {
      io.out(`${refusal}\n`);
      return 2;
    }
  }
  for (const note of plan.notes) io.out(`pinwatch: ${note}\n`);
  io.out(`pinwatch: running pinwatch ${plan.argv.join(' ')}\n`);
  const argv = ['--repo', workspace, ...plan.argv];
  if (command !== 'affected') return main(argv, { ...io, env, cwd: workspace });
  let captured = '';
  const code = await main(argv, { ...io, env, cwd: workspace, out: (t) => void (captured += t) });
  io.out(captured);
  if (code === 0 && !has(splitArgs(input(env, 'args')), '--format')) {
    const entries = JSON.parse(captured) as { image: string; repository: string }[];
    const matrix = { include: entries.map((e) => ({ image: e.image, repository: e.repository })) };
    setOutputs(env, workspace, { 'affected-matrix': JSON.stringify(matrix), 'affected-count': entries.length });
  }
  return code;
}
