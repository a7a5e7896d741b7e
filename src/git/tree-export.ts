/**
 * A revision's tree written out to a folder, without touching the repository's
 * index, work tree, refs or worktree list: `read-tree` into a temporary index
 * file, then `checkout-index --prefix`. Two git processes whatever the size.
 * PR mode lints the base revision's tree this way (check --base).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from './run.js';

export interface ExportedTree {
  /** The folder holding the revision's files (no .git). */
  dir: string;
  remove(): void;
}

export async function exportTree(repo: string, commit: string): Promise<ExportedTree> {
  const holder = mkdtempSync(join(tmpdir(), 'pinwatch-base-tree-'));
  const remove = () => rmSync(holder, { recursive: true, force: true });
  try {
    const dir = join(holder, 'tree');
    const env = { GIT_INDEX_FILE: join(holder, 'index') };
    await git(repo, ['read-tree', commit], { env });
    await git(repo, ['checkout-index', '--all', '--force', `--prefix=${dir}/`], { env });
    return { dir, remove };
  } catch (e) {
    remove();
    throw e;
  }
}
