/**
 * newestFirst (src/stale/unshipped.ts): the one order unshipped commits are
 * listed in, whatever order the history was read in: newest author date first,
 * a tie each before its ancestors, then by commit id.
 */
import { describe, expect, it } from 'vitest';
import { CommitGraph, type CommitNode } from '../../src/git/graph.js';
import { newestFirst } from '../../src/stale/unshipped.js';

/** A graph from `sha: parents` lines, newest first (parents by sha). */
function graphOf(lines: Record<string, string[]>): CommitGraph {
  const shas = Object.keys(lines);
  const nodes: CommitNode[] = shas.map((sha) => ({ sha, parentShas: lines[sha]!, parents: lines[sha]!.map((p) => shas.indexOf(p)).filter((i) => i >= 0), date: '', subject: '' }));
  return new CommitGraph(nodes);
}

// c3 → c2 → c1 (a chain), with ids whose order is not the chain's; u1, u2 on a side line from c1; m merges c3 and u2
const GRAPH = graphOf({ m: ['c3', 'u2'], c3: ['c2'], u2: ['u1'], c2: ['c1'], u1: ['c1'], c1: [] });
const T = '2026-03-01T10:00:00Z';
const at = (commit: string, date = T) => ({ commit, date });

const CASES: { name: string; list: { commit: string; date: string }[]; want: string[] }[] = [
  { name: 'distinct dates: newest first', list: [at('c1', '2026-01-01T00:00:00Z'), at('c3', '2026-03-01T00:00:00Z'), at('c2', '2026-02-01T00:00:00Z')], want: ['c3', 'c2', 'c1'] },
  { name: 'a tie on one line: each before its ancestors, whatever the ids say', list: [at('c1'), at('c2'), at('c3')], want: ['c3', 'c2', 'c1'] },
  { name: 'the same tie read in another order', list: [at('c2'), at('c3'), at('c1')], want: ['c3', 'c2', 'c1'] },
  { name: 'a tie across lines: descendants first, unrelated ones by id', list: [at('u1'), at('c2'), at('u2'), at('c1')], want: ['c2', 'u2', 'u1', 'c1'] },
  { name: 'the same instant in two offsets is a tie', list: [at('c2', '2026-03-01T11:00:00+01:00'), at('c3', '2026-03-01T10:00:00Z')], want: ['c3', 'c2'] },
  { name: 'a tie inside a list with others around it', list: [at('c1', '2026-01-01T00:00:00Z'), at('u1'), at('c3'), at('m', '2026-04-01T00:00:00Z')], want: ['m', 'c3', 'u1', 'c1'] },
  { name: 'commits the graph does not hold: by id', list: [at('zz'), at('aa'), at('c1')], want: ['aa', 'c1', 'zz'] },
];

describe('newestFirst: one order for unshipped commits', () => {
  it.each(CASES)('$name', ({ list, want }) => {
    expect(newestFirst(list, GRAPH).map((c) => c.commit)).toEqual(want);
  });

  it('leaves its input as it was', () => {
    const list = [at('c1'), at('c3')];
    newestFirst(list, GRAPH);
    expect(list.map((c) => c.commit)).toEqual(['c1', 'c3']);
  });
});
