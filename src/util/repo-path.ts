/**
 * Containment of configured paths: `resolveInsideRepo(root, relPath)` resolves a
 * repo-relative (or absolute) path through every symlink of its existing part
 * (realpath, so a symlinked folder on the way counts, not only the last
 * component) and refuses, with a PinwatchError, a path that ends up outside the
 * repository root. Used by every writer of configured paths; a leaf with no
 * pinwatch imports but errors.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { PinwatchError } from '../errors.js';

/** realpath of the longest existing prefix of `abs`, with the rest (which cannot hold a symlink) appended. */
function realpathOfExisting(abs: string): string {
  const rest: string[] = [];
  for (let p = abs; ; p = dirname(p)) {
    try {
      return join(realpathSync(p), ...rest.reverse());
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dirname(p) === p) throw e;
      rest.push(basename(p));
    }
  }
}

/** True when `abs` is `root` or below it (both already real paths). */
export function isInside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The real absolute path of `relPath` (relative to `root`, or absolute), which must
 * stay inside the real `root`. `what` names the path in the error (`the baseline`).
 * Throws PinwatchError `path-outside-repo` (exit 2) otherwise.
 */
export function resolveInsideRepo(root: string, relPath: string, what = 'the path'): string {
  let realRoot: string;
  let real: string;
  try {
    realRoot = realpathSync(root);
    real = realpathOfExisting(resolve(root, relPath));
  } catch (e) {
    throw new PinwatchError('path-unresolvable', `${what} ${JSON.stringify(relPath)} cannot be resolved: ${(e as Error).message}`, {}, { cause: e });
  }
  if (!isInside(realRoot, real)) {
    throw new PinwatchError(
      'path-outside-repo',
      `${what} ${JSON.stringify(relPath)} resolves to ${JSON.stringify(real)}, outside the repository ${JSON.stringify(realRoot)}; pinwatch only writes inside the repository (name a repo-relative path without ../ or symlinks leading out)`,
    );
  }
  return real;
}
