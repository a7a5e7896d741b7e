/**
 * Which first-parent commit brought each commit into HEAD's line: a commit on
 * a merged branch belongs to the merge, whose subject names the PR. Computed in
 * memory from the commit graph, oldest first-parent commit first.
 */
import type { CommitGraph } from '../git/graph.js';

/** Node index → index of the first-parent commit that brought it in. */
export function firstParentOwners(graph: CommitGraph, head: string): Int32Array {
  const owner = new Int32Array(graph.nodes.length).fill(-1);
  const chain = graph.firstParentChain(head).reverse();
  for (const c of chain) {
    const stack = [c];
    while (stack.length > 0) {
      const i = stack.pop()!;
      if (owner[i] !== -1) continue;
      owner[i] = c;
      for (const p of graph.nodes[i]!.parents) if (owner[p] === -1) stack.push(p);
    }
  }
  return owner;
}
