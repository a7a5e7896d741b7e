/**
 * How the derivation modules read a repository file (Dockerfile, .dockerignore,
 * go.mod, Go sources): through the safe reader, so a FIFO never blocks, a
 * symlink to /dev/zero is never read and a huge file is refused, and with a
 * reason the caller reports (a missing file is told apart from a refused one).
 */
import { existsSync } from '../util/tracked-fs.js';
import { posix } from 'node:path';
import { readRegularText } from '../util/safe-read.js';
import { readOnce } from './memo.js';

export type SourceRead = { text: string } | { missing: true } | { refused: string };

/** Read `rel` (repo-relative) under `repoRoot`; symlinks inside the tree are followed, to regular files only. */
export function readSourceText(repoRoot: string, rel: string): SourceRead {
  return readSourceAbs(posix.join(repoRoot, rel));
}

/** Same as readSourceText for an absolute path (once per derivation run: memo.ts). */
export function readSourceAbs(abs: string): SourceRead {
  return readOnce(abs, readNow);
}

function readNow(abs: string): SourceRead {
  const r = readRegularText(abs, { followSymlinks: true });
  if ('text' in r) return r;
  if (!existsSync(abs)) return { missing: true };
  return { refused: r.refused.reason };
}
