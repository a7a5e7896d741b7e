/**
 * The commit graph in memory: one `git log` pass (sha, parents, author date,
 * subject) from the given tips, then ancestry answered by bitmaps instead of
 * one `merge-base` process per question.
 */
import { git } from './run.js';
import { COMMIT_FORMAT, parseCommitLog } from './log-parse.js';

export interface CommitNode {
  sha: string;
  /** Indices of parents present in the graph (a shallow boundary has none). */
  parents: number[];
  /** Parent shas as git printed them (may name commits outside a shallow clone). */
  parentShas: string[];
  /** Author date, ISO 8601 with offset. */
  date: string;
  subject: string;
}

export class CommitGraph {
  readonly nodes: CommitNode[];
  readonly index: Map<string, number>;
  private readonly ancestorCache = new Map<number, Uint8Array>();

  constructor(nodes: CommitNode[]) {
    this.nodes = nodes;
    this.index = new Map(nodes.map((n, i) => [n.sha, i]));
  }

  has(sha: string): boolean {
    return this.index.has(sha);
  }

  node(sha: string): CommitNode | undefined {
    const i = this.index.get(sha);
    return i === undefined ? undefined : this.nodes[i];
  }

  /** Bitmap over `nodes`: 1 for `sha` and every commit reachable from it. Cached per tip. */
  ancestors(sha: string): Uint8Array {
    const start = this.index.get(sha);
    if (start === undefined) return new Uint8Array(this.nodes.length);
    const cached = this.ancestorCache.get(start);
    if (cached) return cached;
    const seen = new Uint8Array(this.nodes.length);
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const i = stack.pop()!;
      for (const p of this.nodes[i]!.parents) {
        if (!seen[p]) {
          seen[p] = 1;
          stack.push(p);
        }
      }
    }
    this.ancestorCache.set(start, seen);
    return seen;
  }

  isAncestor(ancestor: string, descendant: string): boolean {
    const i = this.index.get(ancestor);
    return i !== undefined && this.ancestors(descendant)[i] === 1;
  }

  /** The first-parent chain from `sha`, newest first. */
  firstParentChain(sha: string): number[] {
    const chain: number[] = [];
    let i = this.index.get(sha);
    while (i !== undefined) {
      chain.push(i);
      const n = this.nodes[i]!;
      const firstParentSha = n.parentShas[0];
      i = firstParentSha === undefined ? undefined : this.index.get(firstParentSha);
    }
    return chain;
  }
}

/**
 * Read every commit reachable from `tips` in one process. Fields are
 * NUL-terminated with a fixed count per commit (see log-parse.ts), so no byte
 * of a subject can add, hide or rewrite a commit.
 */
export async function readCommitGraph(repo: string, tips: string[]): Promise<CommitGraph> {
  const out = await git(repo, ['log', '--stdin', '-z', '--no-show-signature', `--format=${COMMIT_FORMAT}`], { input: `${tips.join('\n')}\n` });
  const raw = parseCommitLog(out);
  const index = new Map(raw.map((r, i) => [r.sha, i]));
  const nodes: CommitNode[] = raw.map((r) => ({
    ...r,
    parents: r.parentShas.map((p) => index.get(p)).filter((p): p is number => p !== undefined),
  }));
  return new CommitGraph(nodes);
}
