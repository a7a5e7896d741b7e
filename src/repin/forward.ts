/**
 * `--only-forward`: refuse to repin to an image whose build commit does not
 * descend from the build commit of every image currently pinned. The target's
 * commit comes from the registry (label, annotation or attestation); a current
 * digest's from the registry too, else from digest history (the commit that
 * introduced the digest into a pin file, or its first parent). Ancestry from git.
 * When a commit is unknown, or not in this clone, it says so and the answer is
 * "cannot decide", which refuses.
 */
import { readDigestIntroductions } from '../git/digest-history.js';
import { isAncestor } from '../git/run.js';
import { formatReference } from '../reference/index.js';
import type { RegistryProvenanceOptions } from '../registry/index.js';
import { registryProvenance } from '../registry/index.js';
import type { ForwardCheck, RepinTarget } from './types.js';

async function commitOf(ref: string, opts: RegistryProvenanceOptions): Promise<{ commit?: string; why: string }> {
  try {
    const p = await registryProvenance(ref, opts);
    return p.commit ? { commit: p.commit, why: `${ref} was built from ${p.commit} (${p.commitFrom})` } : { why: p.reason ?? `${ref} names no commit` };
  } catch (e) {
    return { why: `the registry could not answer for ${ref}: ${(e as Error).message}` };
  }
}

export interface HistoryFallback {
  /** Repo-relative files holding the pins (where the digest history is searched). */
  files: string[];
  buildCommit: 'parent' | 'self';
}

async function commitFromHistory(repoRoot: string, digest: string, h: HistoryFallback): Promise<{ commit?: string; why: string }> {
  try {
    const found = (await readDigestIntroductions(repoRoot, [digest], h.files)).found.get(digest);
    if (!found) return { why: `${digest} never appears in the history of ${h.files.length} pin file(s)` };
    const commit = h.buildCommit === 'self' ? found.commit : found.parentShas[0];
    if (!commit) return { why: `${found.commit} introduced ${digest} but has no parent in this clone` };
    return { commit, why: `digest history: ${found.commit.slice(0, 10)} introduced ${digest.slice(0, 19)}…, so the image was built from ${commit.slice(0, 10)}` };
  } catch (e) {
    return { why: `digest history could not be read: ${(e as Error).message}` };
  }
}

export async function checkForward(repoRoot: string, target: RepinTarget, oldDigests: string[], opts: RegistryProvenanceOptions, history?: HistoryFallback): Promise<ForwardCheck> {
  const targetRef = formatReference({ name: target.repository, digest: target.digest });
  const next = await commitOf(targetRef, opts);
  if (!next.commit) return { decided: false, ok: false, reason: `cannot decide: ${next.why}` };
  if (oldDigests.length === 0) return { decided: false, ok: false, reason: 'cannot decide: no pin of the repository names a digest to compare with', targetCommit: next.commit };
  const whys: string[] = [];
  for (const digest of oldDigests) {
    const currentRef = formatReference({ name: target.repository, digest });
    let cur = await commitOf(currentRef, opts);
    if (!cur.commit && history) {
      const fromHistory = await commitFromHistory(repoRoot, digest, history);
      cur = fromHistory.commit ? fromHistory : { why: `${cur.why}; ${fromHistory.why}` };
    }
    if (!cur.commit) return { decided: false, ok: false, reason: `cannot decide: ${cur.why}`, targetCommit: next.commit };
    let forward: boolean;
    try {
      forward = await isAncestor(repoRoot, cur.commit, next.commit);
    } catch {
      return { decided: false, ok: false, reason: `cannot decide: ${cur.commit} or ${next.commit} is not a commit in this clone (fetch more history?)`, currentCommit: cur.commit, targetCommit: next.commit };
    }
    whys.push(cur.why);
    if (!forward) {
      return { decided: true, ok: false, reason: `${targetRef} was built from ${next.commit}, which does not contain ${cur.commit} (the build commit of the pinned ${currentRef}); refusing a backward repin`, currentCommit: cur.commit, targetCommit: next.commit };
    }
  }
  return { decided: true, ok: true, reason: `${next.commit} descends from the build commit of every pinned image (${whys.join('; ')})`, targetCommit: next.commit };
}
