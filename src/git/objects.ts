/** Which of a list of commit shas exist in the object store: one `git cat-file --batch-check`. */
import { git, runGit } from './run.js';

/** Input sha (full or abbreviated) → full commit sha, for those that name a commit here. */
export async function existingCommits(repo: string, shas: string[]): Promise<Map<string, string>> {
  const present = new Map<string, string>();
  if (shas.length === 0) return present;
  const out = await git(repo, ['cat-file', '--batch-check=%(objectname) %(objecttype)'], { input: `${shas.join('\n')}\n` });
  const lines = out.split('\n');
  shas.forEach((sha, i) => {
    const line = lines[i] ?? '';
    if (line.endsWith(' commit')) present.set(sha, line.split(' ')[0]!);
  });
  return present;
}

/** Resolve a revision to a commit sha, or undefined when it does not exist here. */
export async function resolveCommit(repo: string, rev: string): Promise<string | undefined> {
  const r = await runGit(repo, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/**
 * `resolveCommit` plus where `repo` sits in its work tree, in the same single
 * `rev-parse`: `prefix` is '' at the top level, `packages/system/` in a
 * subdirectory, undefined outside a work tree (or when git cannot say).
 */
export async function resolveCommitAndPrefix(repo: string, rev: string): Promise<{ commit?: string; prefix?: string }> {
  const r = await runGit(repo, ['rev-parse', '--show-prefix', '--verify', '--quiet', `${rev}^{commit}`]);
  if (r.code !== 0 && r.code !== 1) return {};
  const [prefix = '', commit = ''] = r.stdout.split('\n');
  return { prefix, ...(r.code === 0 && commit ? { commit: commit.trim() } : {}) };
}
