/** Small repo-relative path helpers shared by the derivation modules. */
import { posix } from 'node:path';
import { statOnce } from './memo.js';

/** Join repo-relative parts; `.` for the repo root, never a trailing slash. */
export function repoJoin(...parts: string[]): string {
  const p = posix.normalize(parts.filter((x) => x !== '' && x !== '.').join('/')).replace(/\/$/, '');
  return p === '' || p === '.' ? '.' : p;
}

/** Does `path` (repo-relative) lie at or below `dir`? */
export function isWithin(path: string, dir: string): boolean {
  return dir === '.' || path === dir || path.startsWith(`${dir}/`);
}

/** How an InputPattern spells a directory: `x/`, or `./` for the repo root. */
export function dirPattern(dir: string): string {
  return dir === '.' ? './' : `${dir}/`;
}

export async function pathKind(repoRoot: string, path: string): Promise<'file' | 'dir' | 'missing'> {
  const s = await statOnce(posix.join(repoRoot, path));
  if (!s) return 'missing';
  return s.isDirectory() ? 'dir' : 'file';
}
