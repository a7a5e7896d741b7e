/** How a file is named in messages and outputs: repo-relative with forward slashes when inside the repo, else as given. */
import { isAbsolute, relative, sep } from 'node:path';

/** `root/a/b.json` → `a/b.json`; a path outside `root` (or `root` itself) stays as given. `..x/` is inside. */
export function displayPath(root: string, file: string): string {
  const rel = relative(root, file);
  const outside = rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
  return outside ? file : rel.split(sep).join('/');
}
