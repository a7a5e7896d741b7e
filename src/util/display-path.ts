/** How a file is named in messages and outputs: repo-relative with forward slashes when inside the repo, else as given. */
import { isAbsolute, relative, sep } from 'node:path';

/** `root/a/b.json` → `a/b.json`; a path outside `root` (or `root` itself) stays as given. `..x/` is inside. */
export function displayPath(root: string, file: string): string {
  const rel = relative(root, file);
  return rel === '' || !isBelow(rel) ? file : rel.split(sep).join('/');
}

/** True when `file` is `root` or below it, lexically (`..x/` is inside; symlinks are not resolved here). */
export function isUnder(root: string, file: string): boolean {
  const rel = relative(root, file);
  return rel === '' || isBelow(rel);
}

function isBelow(rel: string): boolean {
  return !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}
