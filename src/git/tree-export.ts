/**
 * A revision's tree written out to a folder, without touching the repository's
 * index, work tree, refs or worktree list: `read-tree` into a temporary index
 * file, then `checkout-index --prefix`. Two git processes whatever the size.
 * PR mode lints the base revision's tree this way (check --base). And whether
 * the work tree is, as a tree walk sees it, exactly such a written-out tree of
 * HEAD (workTreeDiffers): then what was derived from it stands for HEAD's tree.
 */
import { mkdtempSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { git, runGitBytes } from './run.js';

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

/**
 * Why the work tree holding `repo` (at `prefix` in it, as `rev-parse
 * --show-prefix` says) is not exactly HEAD's tree as exportTree writes it, or
 * undefined when it is. Three git processes at once, over the whole work tree
 * (a symlink below the root may lead anywhere in it):
 * - `status --untracked-files=no`: no staged or unstaged change of a tracked file;
 * - `clean -n -d -x`: no untracked or ignored file and no directory git does not
 *   track (an empty one is seen by a walk and a stat, never written out);
 * - `ls-files -s -v`: no file git is told to trust (assume-unchanged,
 *   skip-worktree: sparse), no conflict, no submodule (written out as nothing),
 *   and every symlink relative and leading, from its own folder, to a path inside
 *   the tree (resolved step by step, each then ends where it does in a written-out
 *   tree; an absolute one, or one leaving the tree, leads elsewhere from there).
 */
export async function workTreeDiffers(repo: string, prefix: string): Promise<string | undefined> {
  const [status, clean, files] = await Promise.all([
    runGitBytes(repo, ['status', '--porcelain=v1', '-z', '--untracked-files=no', '--ignore-submodules=none']),
    runGitBytes(repo, ['clean', '-n', '-d', '-x', '--', ':/']),
    runGitBytes(repo, ['ls-files', '-s', '-v', '-z', '--full-name', '--', ':/']),
  ]);
  for (const [what, r] of [['status', status], ['clean -n', clean], ['ls-files', files]] as const) {
    if (r.code !== 0) return `git ${what} failed (exit ${r.code}): ${r.stderr.trim().split('\n')[0] ?? ''}`;
  }
  // porcelain v1 -z: `XY path` (a rename `XY to`, then `from`)
  if (status.stdout.length > 0) return `a tracked file differs from HEAD (${status.stdout.toString('utf8').split('\0')[0]!.slice(3)})`;
  if (clean.stdout.length > 0) return `a file or folder git does not track is there (${clean.stdout.toString('utf8').split('\n')[0]!.replace(/^Would (remove|skip repository) /, '')})`;
  let top: string | undefined;
  for (const entry of files.stdout.toString('utf8').split('\0')) {
    if (entry === '') continue;
    const m = /^(\S) (\d{6}) [0-9a-f]+ (\d)\t([\s\S]*)$/.exec(entry);
    if (!m) return `git ls-files printed an entry it was not asked for (${JSON.stringify(entry.slice(0, 80))})`;
    const [, tag, mode, stage, path] = m as unknown as [string, string, string, string, string];
    if (tag !== 'H') return `git is told to trust ${path} as it is (${tag === 'S' ? 'skip-worktree: a sparse checkout' : 'assume-unchanged'})`;
    if (stage !== '0') return `${path} is in conflict`;
    if (mode === '160000') return `${path} is a submodule`;
    if (mode !== '120000') continue;
    top ??= topOf(repo, prefix);
    let target: string;
    try {
      target = readlinkSync(join(top, path), 'utf8');
    } catch (e) {
      return `the symlink ${path} could not be read (${e instanceof Error ? e.message : String(e)})`;
    }
    const lands = posix.normalize(posix.join(posix.dirname(path), target));
    if (posix.isAbsolute(target) || lands === '..' || lands.startsWith('../')) return `the symlink ${path} leads out of the tree (${target})`;
  }
  return undefined;
}

/** The work tree's top: the root's real path less its prefix's folders. */
function topOf(repo: string, prefix: string): string {
  const depth = prefix.split('/').filter((s) => s !== '').length;
  return join(realpathSync(repo), ...Array<string>(depth).fill('..'));
}
