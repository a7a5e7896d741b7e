/**
 * `git patch-id --stable` for a list of commits: one `git diff-tree --stdin -p`
 * process produces every patch, one `git patch-id` process hashes them all.
 */
import { checkSha, malformed } from './log-parse.js';
import { git } from './run.js';

/** Commit sha → stable patch id. Commits with an empty patch are absent. */
export async function patchIds(repo: string, commits: string[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  if (commits.length === 0) return ids;
  const patches = await git(repo, ['diff-tree', '--stdin', '-p', '--no-color', '--no-ext-diff', '--root'], {
    input: `${commits.join('\n')}\n`,
  });
  if (patches.trim() === '') return ids;
  return parsePatchIds(await git(repo, ['patch-id', '--stable'], { input: patches }));
}

/**
 * `git patch-id` output: `<patch-id> <commit>` lines, both hex. (Its input is
 * safe too: patch-id counts hunk lines, and every content line starts with
 * `+`, `-` or a space, so none reads as a commit header.)
 */
export function parsePatchIds(out: string): Map<string, string> {
  const ids = new Map<string, string>();
  for (const line of out.split('\n')) {
    if (line === '') continue;
    const [patchId = '', commit = '', ...extra] = line.split(' ');
    if (extra.length > 0) throw malformed('patch-id line', line);
    ids.set(checkSha(commit), checkSha(patchId, 'patch id'));
  }
  return ids;
}
