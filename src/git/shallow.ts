/**
 * Is the repository a shallow clone, and which commits are its grafted boundary?
 * One git process; the boundary list is read from `$GIT_DIR/shallow`.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { PinwatchError } from '../errors.js';
import { runGit } from './run.js';

export interface ShallowState {
  shallow: boolean;
  /** Commits whose parents are cut off by the shallow clone. */
  boundary: Set<string>;
}

export async function readShallowState(repo: string): Promise<ShallowState> {
  const r = await runGit(repo, ['rev-parse', '--is-shallow-repository', '--git-path', 'shallow']);
  if (r.code !== 0) {
    if (/not a git repository/i.test(r.stderr)) {
      throw new PinwatchError('not-a-git-repo', `${repo} is not inside a git repository; this command reads history, so run it in a clone`);
    }
    throw new PinwatchError('git-failed', `git rev-parse --is-shallow-repository failed (exit ${r.code}): ${r.stderr.trim().split('\n')[0] ?? ''}`);
  }
  // "true|false\n<path>\n": the path is printed raw and may itself hold newlines.
  const out = r.stdout.endsWith('\n') ? r.stdout.slice(0, -1) : r.stdout;
  const nl = out.indexOf('\n');
  return shallowStateOf(repo, nl < 0 ? out : out.slice(0, nl), nl < 0 ? '' : out.slice(nl + 1));
}

/** The state from `rev-parse --is-shallow-repository` (`flag`) and `--git-path shallow` (`shallowPath`, relative to `repo`). */
export function shallowStateOf(repo: string, flag: string, shallowPath: string): ShallowState {
  const shallow = flag.trim() === 'true';
  if (!shallow) return { shallow, boundary: new Set() };
  const file = isAbsolute(shallowPath) ? shallowPath : join(repo, shallowPath);
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    /* a shallow repo always has this file; an unreadable one leaves the boundary empty */
  }
  return { shallow, boundary: new Set(text.split('\n').map((l) => l.trim()).filter(Boolean)) };
}
