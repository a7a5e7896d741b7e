/**
 * Where pod lists come from: a file, a folder (an e2e report bundle: every
 * `*.json`/`*.yaml`/`*.yml` under it; files that hold no Pod are listed, and in
 * a folder a file that does not parse is listed with why), stdin (`-`), or
 * `kubectl get pods -o json` run through an argument array.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { PinwatchError, isPinwatchError } from '../errors.js';
import { parsePodsText } from './pods.js';
import type { PodList } from './types.js';

const POD_FILE = /\.(json|ya?ml)$/i;
const MAX_FILES = 20_000;

export interface ReadPodsOptions {
  /** Read stdin (for `-`). */
  stdin?: () => Promise<string>;
  /** Resolve relative paths against this (default process.cwd()). */
  cwd?: string;
}

/** Read the pod lists at `spec` (a file, a folder, or `-`). */
export async function readPods(spec: string, opts: ReadPodsOptions = {}): Promise<PodList> {
  const list: PodList = { containers: [], pods: 0, files: [], filesWithoutPods: [] };
  if (spec === '-') {
    if (!opts.stdin) throw new PinwatchError('pods-unreadable', '--pods - reads stdin, and none is available here');
    addText(list, await opts.stdin(), '<stdin>', true);
    return list;
  }
  const abs = resolve(opts.cwd ?? process.cwd(), spec);
  let st;
  try {
    st = statSync(abs);
  } catch {
    throw new PinwatchError('pods-unreadable', `--pods ${JSON.stringify(spec)} does not exist; expected a file, a folder of pod lists, or - for stdin`);
  }
  if (!st.isDirectory()) {
    addText(list, readText(abs, spec), spec, true);
    return list;
  }
  for (const file of walk(abs)) {
    const shown = join(spec, relative(abs, file));
    addText(list, readText(file, shown), shown, false);
  }
  return list;
}

function readText(abs: string, shown: string): string {
  try {
    return readFileSync(abs, 'utf8');
  } catch (e) {
    throw new PinwatchError('pods-unreadable', `cannot read ${JSON.stringify(shown)}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Pod files under `dir`, sorted, symlinks not followed. */
function walk(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile() && POD_FILE.test(e.name)) out.push(p);
      if (out.length > MAX_FILES) throw new PinwatchError('pods-unreadable', `more than ${MAX_FILES} pod files under ${JSON.stringify(dir)}; give the folder that holds the pod lists`);
    }
  }
  return out.sort();
}

/** Parse one text into `list`; `strict` (a named file) makes a parse error fatal, else the file is listed with why. */
export function addText(list: PodList, text: string, file: string, strict: boolean): void {
  try {
    const { containers, pods } = parsePodsText(text, file);
    if (pods === 0) list.filesWithoutPods.push(file);
    else list.files.push(file);
    list.containers.push(...containers);
    list.pods += pods;
  } catch (e) {
    if (strict || !isPinwatchError(e) || e.code !== 'pods-invalid') throw e;
    list.filesWithoutPods.push(`${e.describe()} (not read)`);
  }
}

export interface KubectlOptions {
  context?: string;
  namespace?: string;
  allNamespaces?: boolean;
  env?: Record<string, string | undefined>;
  /** The kubectl to run (default `kubectl` from PATH). */
  bin?: string;
}

/** `kubectl get pods -o json [--context C] [-n NS | -A]`, parsed. */
export async function readPodsFromKubectl(opts: KubectlOptions = {}): Promise<PodList> {
  const args = ['get', 'pods', '-o', 'json'];
  if (opts.context) args.push('--context', opts.context);
  if (opts.allNamespaces) args.push('--all-namespaces');
  else if (opts.namespace) args.push('--namespace', opts.namespace);
  const shown = `kubectl ${args.join(' ')}`;
  const { code, stdout, stderr, error } = await run(opts.bin ?? 'kubectl', args, opts.env);
  if (error) throw new PinwatchError('kubectl-failed', `${shown} could not run: ${error}${/ENOENT/.test(error) ? ' (is kubectl on PATH? or give --pods FILE)' : ''}`);
  if (code !== 0) throw new PinwatchError('kubectl-failed', `${shown} exited ${code}: ${stderr.trim().split('\n')[0]?.slice(0, 300) ?? ''}`);
  const list: PodList = { containers: [], pods: 0, files: [], filesWithoutPods: [] };
  addText(list, stdout, shown, true);
  return list;
}

function run(bin: string, args: string[], env: Record<string, string | undefined> | undefined): Promise<{ code: number; stdout: string; stderr: string; error?: string }> {
  return new Promise((done) => {
    const child = spawn(bin, args, { env: (env ?? process.env) as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => done({ code: -1, stdout: '', stderr: '', error: e.message }));
    child.on('close', (code) => done({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}
