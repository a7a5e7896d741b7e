/**
 * `--only-forward`: refuse to repin to an image whose build commit does not
 * descend from the build commit of every image currently pinned. Both build
 * commits come from the one provenance chain stale and explain use
 * (src/provenance/sources.ts: the configured `provenance.methods`, `registry`
 * first as under `stale --registry`, an answer accepted only when its commit is
 * in this clone), with stale's "source and pin in one commit" rule when the build
 * inputs are known. This file keeps only that rule's application and the
 * ancestry check, read from one commit-graph pass. When a build commit is
 * unknown the answer is "cannot decide", which refuses.
 */
import type { Config } from '../config/types.js';
import { readChangedPaths } from '../git/changed-paths.js';
import { readCommitGraph } from '../git/graph.js';
import { resolveCommitAndPrefix } from '../git/objects.js';
import { readShallowState, type ShallowState } from '../git/shallow.js';
import type { Pin } from '../model/index.js';
import { introducerOf, withIntroducerBuild } from '../provenance/digest-history.js';
import type { RegistryAsk } from '../provenance/registry.js';
import { methodsFor, provenanceFor } from '../provenance/sources.js';
import { subjectsOf } from '../provenance/subjects.js';
import type { ImageSubject, Provenance } from '../provenance/types.js';
import { formatReference } from '../reference/index.js';
import { inputMatcher } from '../sources/matcher.js';
import type { BuildInputs } from '../sources/types.js';
import type { ForwardCheck, RepinTarget } from './types.js';

export interface ForwardOptions {
  /** `provenance.methods` and `provenance.buildCommit` of pinwatch.yaml. */
  config: Pick<Config, 'provenance'>;
  /** How to ask the registry (repin always may: it resolves the target there). */
  registry: RegistryAsk;
  /** The image's build inputs, when known: a digest committed with a change to them was built from that commit. */
  inputs?: BuildInputs;
}

/**
 * Stale's "source and pin in one commit" rule: a digest-history answer moves from
 * the introducing commit's parent to the commit itself when that commit changes
 * the image's build inputs. One changed-paths pass for all subjects.
 */
async function withSourceAndPinTogether(repoRoot: string, provenance: Provenance[], inputs: BuildInputs | undefined): Promise<Provenance[]> {
  if (!inputs || inputs.unknownReason) return provenance;
  const introducers = provenance.map(introducerOf);
  const asked = [...new Set(introducers.filter((c): c is string => c !== undefined))];
  if (asked.length === 0) return provenance;
  const changed = await readChangedPaths(repoRoot, asked);
  const match = inputMatcher(inputs).match;
  return provenance.map((p, i) => {
    const introducer = introducers[i];
    const paths = introducer ? (changed.get(introducer) ?? []).filter((path) => match(path) !== undefined).sort() : [];
    return introducer && paths.length > 0 ? withIntroducerBuild(p, { commit: introducer, paths }) : p;
  });
}

/** `how` the chosen method answered, for the reason line: `registry: the registry's label of … names …`. */
function how(p: Provenance): string {
  const step = p.steps.find((s) => s.answered && s.method === p.method);
  return `${p.method}: ${step?.reason ?? `built from ${p.commit}`}`;
}

/** The subjects: the target first, then one per pinned digest (in `oldDigests` order). */
function subjectsFor(target: RepinTarget, pins: Pin[], oldDigests: string[]): ImageSubject[] {
  const current = subjectsOf([{ repository: target.repository, pins }]);
  const olds = oldDigests.map((digest) => current.find((s) => s.digest === digest) ?? { repository: target.repository, digest, tags: [], pins: [] });
  // The target is checked against the same pin files (a git tag whose tree pins the target digest built it).
  const targetSubject: ImageSubject = { repository: target.repository, digest: target.digest, tags: target.tag !== undefined ? [target.tag] : [], pins };
  return [targetSubject, ...olds];
}

async function historyContext(repoRoot: string): Promise<{ head: string; prefix: string; shallow: ShallowState } | string> {
  try {
    const { commit: head, prefix } = await resolveCommitAndPrefix(repoRoot, 'HEAD');
    if (!head) return `${repoRoot} has no commit to read history from (not a git repository, or an empty one)`;
    return { head, prefix: prefix ?? '', shallow: await readShallowState(repoRoot) };
  } catch (e) {
    return `the history could not be read: ${(e as Error).message}`;
  }
}

/**
 * Does the target's build commit contain the build commit of every pinned digest of
 * the repository? `pins` are the repository's pins in the tree.
 */
export async function checkForward(repoRoot: string, target: RepinTarget, pins: Pin[], oldDigests: string[], opts: ForwardOptions): Promise<ForwardCheck> {
  const targetRef = formatReference({ name: target.repository, digest: target.digest });
  const ctx = await historyContext(repoRoot);
  if (typeof ctx === 'string') return { decided: false, ok: false, reason: `cannot decide: ${ctx}` };
  const subjects = subjectsFor(target, pins, oldDigests);
  const methods = methodsFor(opts.config, opts.registry);
  const found = await provenanceFor(repoRoot, subjects, methods, { ...ctx, buildCommit: opts.config.provenance.buildCommit, registry: opts.registry });
  const [next, ...currents] = await withSourceAndPinTogether(repoRoot, found, opts.inputs);
  if (!next!.commit) return { decided: false, ok: false, reason: `cannot decide: the build commit of ${targetRef} is unknown: ${next!.reason}` };
  const targetCommit = next!.commit;
  if (currents.length === 0) return { decided: false, ok: false, reason: 'cannot decide: no pin of the repository names a digest to compare with', targetCommit };
  const unknown = currents.findIndex((c) => !c.commit);
  if (unknown >= 0) {
    const ref = formatReference({ name: target.repository, digest: oldDigests[unknown]! });
    return { decided: false, ok: false, reason: `cannot decide: the build commit of the pinned ${ref} is unknown: ${currents[unknown]!.reason}`, targetCommit };
  }
  const graph = await readCommitGraph(repoRoot, [targetCommit, ...currents.map((c) => c.commit!)]);
  const whys: string[] = [];
  for (const [i, cur] of currents.entries()) {
    const currentRef = formatReference({ name: target.repository, digest: oldDigests[i]! });
    const currentCommit = cur.commit!;
    whys.push(`${oldDigests[i]!.slice(0, 19)}… ${how(cur)}`);
    if (graph.isAncestor(currentCommit, targetCommit)) continue;
    if (ctx.shallow.shallow) {
      return { decided: false, ok: false, reason: `cannot decide: ${targetCommit} does not contain ${currentCommit} within this shallow clone, whose history may be cut between them (fetch-depth: 0)`, currentCommit, targetCommit };
    }
    return {
      decided: true,
      ok: false,
      reason: `${targetRef} was built from ${targetCommit} (${how(next!)}), which does not contain ${currentCommit} (the build commit of the pinned ${currentRef}, ${how(cur)}); refusing a backward repin`,
      currentCommit,
      targetCommit,
    };
  }
  const only = currents.length === 1 ? { currentCommit: currents[0]!.commit! } : {};
  return { decided: true, ok: true, reason: `${targetCommit} (${how(next!)}) descends from the build commit of every pinned image (${whys.join('; ')})`, ...only, targetCommit };
}
