/**
 * The in-memory heart of stale: given the commit graph, changed paths and an
 * input matcher, which commits reachable from HEAD change the image's inputs
 * and are not in the build commit's history. Merges are left out. Pure.
 */
import type { CommitGraph } from '../git/graph.js';
import type { PathMatcher } from './match.js';

export interface Candidate {
  index: number;
  /** Changed paths that are build inputs. */
  paths: string[];
}

/** Non-merge commits reachable from head and not from build. */
export function outsideBuild(graph: CommitGraph, head: string, build: string): number[] {
  const fromHead = graph.ancestors(head);
  const fromBuild = graph.ancestors(build);
  const out: number[] = [];
  for (let i = 0; i < graph.nodes.length; i++) {
    if (fromHead[i] && !fromBuild[i] && graph.nodes[i]!.parentShas.length < 2) out.push(i);
  }
  return out;
}

/** Of `commits`, those whose changed paths hit the inputs. */
export function touchingInputs(graph: CommitGraph, commits: number[], changed: Map<string, string[]>, match: PathMatcher): Candidate[] {
  const out: Candidate[] = [];
  for (const index of commits) {
    const paths = (changed.get(graph.nodes[index]!.sha) ?? []).filter((p) => match(p) !== undefined);
    if (paths.length > 0) out.push({ index, paths });
  }
  return out;
}

/**
 * Commits in the build commit's history that a cherry-pick of a candidate could
 * be: non-merge, authored no earlier than the oldest candidate (cherry-pick and
 * rebase keep the author date).
 */
export function cherryPickPool(graph: CommitGraph, build: string, candidates: Candidate[], authorTimes: Float64Array): number[] {
  if (candidates.length === 0) return [];
  const since = Math.min(...candidates.map((c) => authorTimes[c.index]!));
  const fromBuild = graph.ancestors(build);
  const out: number[] = [];
  for (let i = 0; i < graph.nodes.length; i++) {
    if (fromBuild[i] && authorTimes[i]! >= since && graph.nodes[i]!.parentShas.length < 2) out.push(i);
  }
  return out;
}
