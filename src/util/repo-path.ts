/**
 * Path containment, one home for both sides. `resolveInsideRepo` takes a path
 * the repository names (its pinwatch.yaml values): written repo-relative, so an
 * absolute path, `~` or `..` is refused as written, and then through a symlink
 * (every component is resolved with realpath, not only the last one).
 * `containedPath` takes a path pinwatch computed and is about to write (repin's
 * files, overlay's copy, the baseline): absolute is fine, only where it really
 * lands counts. Both throw PinwatchError `path-outside-repo`.
 */
import { realpathSync } from './tracked-fs.js';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { PinwatchError } from '../errors.js';

/** Why `relPath` (as written, before resolving symlinks) cannot name a file inside the repository, or undefined. */
export function lexicalPathProblem(relPath: string): string | undefined {
  if (relPath.length === 0) return 'is empty';
  if (isAbsolute(relPath) || /^[A-Za-z]:[\\/]/.test(relPath)) return 'is absolute';
  if (relPath === '~' || relPath.startsWith('~')) return 'starts with ~ (a home directory)';
  if (relPath.split(/[\\/]/).includes('..')) return 'goes up with ..';
  return undefined;
}

/** realpath of the longest existing prefix of `abs`, with the rest appended as written. */
function realpathExisting(abs: string): string {
  const tail: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      return join(realpathSync(cur), ...tail.reverse());
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
      const parent = dirname(cur);
      if (parent === cur) throw e;
      tail.push(cur.slice(parent.length).replace(/^[\\/]+/, ''));
      cur = parent;
    }
  }
}

/** True when `real` is `rootReal` or below it (both already real paths). */
export function isInside(rootReal: string, real: string): boolean {
  return real === rootReal || real.startsWith(rootReal.endsWith(sep) ? rootReal : rootReal + sep);
}

/**
 * The absolute, symlink-free path of `relPath` under `root`, which must stay
 * inside the (real) root. The file need not exist. Throws PinwatchError
 * `path-outside-repo` (no location: callers add the file:line naming the path).
 */
export function resolveInsideRepo(root: string, relPath: string): string {
  const refuse = (why: string) =>
    new PinwatchError('path-outside-repo', `${JSON.stringify(relPath)} ${why}; expected a path inside the repository, relative to its root`);
  const lexical = lexicalPathProblem(relPath);
  if (lexical) throw refuse(lexical);
  const rootReal = realpathExisting(resolve(root));
  let real: string;
  try {
    real = realpathExisting(resolve(rootReal, relPath));
  } catch (e) {
    throw refuse(`cannot be resolved (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (!isInside(rootReal, real)) throw refuse('leads out of the repository through a symlink');
  return real;
}

/** True when `abs` (any path) resolves inside the real root `rootReal`; false when it leaves it or cannot be resolved. */
export function resolvesInside(rootReal: string, abs: string): boolean {
  try {
    return isInside(rootReal, realpathExisting(abs));
  } catch {
    return false;
  }
}

/**
 * The real absolute path of `path` (relative to `root`, or absolute) that pinwatch
 * is about to write; it must land inside the real `root`. `what` names it in the
 * error (`the baseline`).
 */
export function containedPath(root: string, path: string, what = 'the path'): string {
  let rootReal: string;
  let real: string;
  try {
    rootReal = realpathExisting(resolve(root));
    real = realpathExisting(resolve(root, path));
  } catch (e) {
    throw new PinwatchError('path-unresolvable', `${what} ${JSON.stringify(path)} cannot be resolved: ${(e as Error).message}`, {}, { cause: e });
  }
  if (!isInside(rootReal, real)) {
    throw new PinwatchError(
      'path-outside-repo',
      `${what} ${JSON.stringify(path)} resolves to ${JSON.stringify(real)}, outside the repository ${JSON.stringify(rootReal)}; pinwatch only writes inside the repository (name a repo-relative path without ../ or symlinks leading out)`,
    );
  }
  return real;
}
