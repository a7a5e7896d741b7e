/**
 * Paths each commit changes (against its first parent), for an exact list of
 * commits, in one `git log --no-walk --stdin --name-only` process. Merges list
 * no paths (git shows no diff for them without -m), which is what stale wants.
 * Paths are relative to `repo` (`--relative`): when pinwatch's root is a
 * subdirectory of the work tree, they match the scan's paths, and changes
 * outside it are not listed.
 */
import { git } from './run.js';
import { newNonce, nulTerminated, parseNameOnlyLog } from './log-parse.js';

/** Paths come NUL-terminated (`-z`: never C-quoted, any byte but NUL) in records that start with a per-run nonce. */
export async function readChangedPaths(repo: string, commits: string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  if (commits.length === 0) return result;
  const nonce = newNonce();
  const out = await git(repo, ['log', '--no-walk=unsorted', '--stdin', '-z', '--no-show-signature', '--name-only', '--relative', '--no-renames', `--format=${nonce}%H`], {
    input: `${commits.join('\n')}\n`,
  });
  for (const r of parseNameOnlyLog(out, nonce)) result.set(r.sha, r.paths);
  return result;
}

/** `git diff --name-only -z base...head`: paths changed on head's side since the merge base. */
export async function diffNamesSinceMergeBase(repo: string, base: string, head: string): Promise<string[]> {
  const out = await git(repo, ['diff', '--name-only', '-z', '--relative', '--no-renames', '--no-ext-diff', `${base}...${head}`]);
  return nulTerminated(out);
}
