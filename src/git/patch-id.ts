/**
 * `git patch-id --stable` for a list of commits: one `git diff-tree --stdin -p`
 * process produces every patch, one `git patch-id` process hashes them all.
 */
import { git } from './run.js';

/** Commit sha → stable patch id. Commits with an empty patch are absent. */
export async function patchIds(repo: string, commits: string[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  if (commits.length === 0) return ids;
  const patches = await git(repo, ['diff-tree', '--stdin', '-p', '--no-color', '--no-ext-diff', '--root'], {
    input: `${commits.join('\n')}\n`,
  });
  if (patches.trim() === '') return ids;
  const out = await git(repo, ['patch-id', '--stable'], { input: patches });
  for (const line of out.split('\n')) {
    const [patchId, commit] = line.trim().split(/\s+/);
    if (patchId && commit) ids.set(commit, patchId);
  }
  return ids;
}
