/**
 * Read-side path containment: resolve a path named by the repository (its
 * pinwatch.yaml, its files) against the repository root and refuse one that
 * leaves it: absolute, `~`, `..`, or through a symlink (every component is
 * resolved with realpath, not only the last one).
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
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

function isInside(rootReal: string, real: string): boolean {
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

/** `abs` relative to `root`, with forward slashes, or undefined when it is not below root. */
export function repoRelativePath(root: string, abs: string): string | undefined {
  const rel = relative(root, abs);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : undefined;
}
