/**
 * `--only-forward`: refuse to repin to an image whose build commit does not
 * descend from the build commit of every image currently pinned. Both commits
 * come from the registry (label, annotation or attestation); ancestry from git.
 * When either is unknown, or a commit is not in this clone, it says so and the
 * answer is "cannot decide", which refuses.
 */
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

export async function checkForward(repoRoot: string, target: RepinTarget, oldDigests: string[], opts: RegistryProvenanceOptions): Promise<ForwardCheck> {
  const targetRef = formatReference({ name: target.repository, digest: target.digest });
  const next = await commitOf(targetRef, opts);
  if (!next.commit) return { decided: false, ok: false, reason: `cannot decide: ${next.why}` };
  if (oldDigests.length === 0) return { decided: false, ok: false, reason: 'cannot decide: no pin of the repository names a digest to compare with', targetCommit: next.commit };
  for (const digest of oldDigests) {
    const currentRef = formatReference({ name: target.repository, digest });
    const cur = await commitOf(currentRef, opts);
    if (!cur.commit) return { decided: false, ok: false, reason: `cannot decide: ${cur.why}`, targetCommit: next.commit };
    let forward: boolean;
    try {
      forward = await isAncestor(repoRoot, cur.commit, next.commit);
    } catch {
      return { decided: false, ok: false, reason: `cannot decide: ${cur.commit} or ${next.commit} is not a commit in this clone (fetch more history?)`, currentCommit: cur.commit, targetCommit: next.commit };
    }
    if (!forward) {
      return { decided: true, ok: false, reason: `${targetRef} was built from ${next.commit}, which does not contain ${cur.commit} (the build commit of the pinned ${currentRef}); refusing a backward repin`, currentCommit: cur.commit, targetCommit: next.commit };
    }
  }
  return { decided: true, ok: true, reason: `${next.commit} descends from the build commit of every pinned image`, targetCommit: next.commit };
}
