/**
 * Paths each commit changes (against its first parent), for an exact list of
 * commits, in one `git log --no-walk --stdin --name-only` process. Merges list
 * no paths (git shows no diff for them without -m), which is what stale wants.
 * Paths are relative to `repo` (`--relative`): when pinwatch's root is a
 * subdirectory of the work tree, they match the scan's paths, and changes
 * outside it are not listed.
 */
import { git } from './run.js';
import { bodyLines, headerLine, records, RS } from './log-parse.js';

export async function readChangedPaths(repo: string, commits: string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  if (commits.length === 0) return result;
  const out = await git(repo, ['log', '--no-walk=unsorted', '--stdin', '--name-only', '--relative', '--no-renames', `--format=${RS}%H`], {
    input: `${commits.join('\n')}\n`,
  });
  for (const r of records(out)) result.set(headerLine(r).trim(), bodyLines(r));
  return result;
}

/** `git diff --name-only base...head`: paths changed on head's side since the merge base. */
export async function diffNamesSinceMergeBase(repo: string, base: string, head: string): Promise<string[]> {
  const out = await git(repo, ['diff', '--name-only', '--relative', '--no-renames', `${base}...${head}`]);
  return out.split('\n').filter(Boolean);
}
