/**
 * The in-memory heart of stale: given the commit graph, changed paths and an
 * input matcher, which commits reachable from HEAD change the image's inputs
 * and are not in the build commit's history. Merges are left out. Pure.
 */
import type { CommitGraph } from '../git/graph.js';
import { pathIndex, type InputMatcher, type PathIndex } from '../sources/matcher.js';

export interface Candidate {
  index: number;
  /** Changed paths that are build inputs. */
  paths: string[];
}

/** Bitmap of non-merge commits reachable from head and not from build. */
export function outsideBuild(graph: CommitGraph, head: string, build: string): Uint8Array {
  const fromHead = graph.ancestors(head);
  const fromBuild = graph.ancestors(build);
  const out = new Uint8Array(graph.nodes.length);
  for (let i = 0; i < graph.nodes.length; i++) {
    if (fromHead[i] && !fromBuild[i] && graph.nodes[i]!.parentShas.length < 2) out[i] = 1;
  }
  return out;
}

/** Changed path → indices of the commits that change it (built once for all images). */
export function commitsByPath(graph: CommitGraph, changed: Map<string, string[]>): Map<string, number[]> {
  const byPath = new Map<string, number[]>();
  for (const [sha, paths] of changed) {
    const index = graph.index.get(sha);
    if (index === undefined) continue;
    for (const p of paths) {
      const list = byPath.get(p);
      if (list) list.push(index);
      else byPath.set(p, [index]);
    }
  }
  return byPath;
}

const pathIndexes = new WeakMap<Map<string, number[]>, PathIndex>();

/**
 * Commits in `outside` (a bitmap) whose changed paths hit the inputs. The
 * distinct changed paths are indexed once (for every image's matcher), and each
 * matcher looks up its own patterns there, not every path.
 */
export function touchingInputs(byPath: Map<string, number[]>, outside: Uint8Array, matcher: InputMatcher): Candidate[] {
  return touchingInputsIn(byPath, [outside], matcher)[0]!;
}

/** touchingInputs for each of several bitmaps, the matcher asked once: one list per bitmap. */
export function touchingInputsIn(byPath: Map<string, number[]>, bitmaps: readonly Uint8Array[], matcher: InputMatcher): Candidate[][] {
  const hits = bitmaps.map(() => new Map<number, string[]>());
  let paths = pathIndexes.get(byPath);
  if (!paths) pathIndexes.set(byPath, (paths = pathIndex(byPath.keys())));
  for (const path of matcher.matching(paths)) {
    for (const index of byPath.get(path)!) {
      for (let b = 0; b < bitmaps.length; b++) {
        if (!bitmaps[b]![index]) continue;
        const list = hits[b]!.get(index);
        if (list) list.push(path);
        else hits[b]!.set(index, [path]);
      }
    }
  }
  return hits.map((h) => [...h].map(([index, paths]) => ({ index, paths: paths.sort() })));
}

/** Node indices sorted by author time, oldest first, with the times, for pool lookups. */
export interface TimeIndex {
  order: Int32Array;
  times: Float64Array;
}

export function timeIndex(graph: CommitGraph): TimeIndex {
  const times = Float64Array.from(graph.nodes, (n) => Date.parse(n.date));
  const order = Int32Array.from(graph.nodes.keys()).sort((a, b) => times[a]! - times[b]!);
  return { order, times };
}

/**
 * Commits in the build commit's history authored at or after `since`
 * (non-merge): where a cherry-pick of a later commit can sit, since
 * cherry-pick and rebase keep the author date. Visits only commits authored since then.
 */
export function authoredSince(graph: CommitGraph, build: string, since: number, index: TimeIndex): number[] {
  let lo = 0;
  let hi = index.order.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (index.times[index.order[mid]!]! < since) lo = mid + 1;
    else hi = mid;
  }
  const fromBuild = graph.ancestors(build);
  const out: number[] = [];
  for (let k = lo; k < index.order.length; k++) {
    const i = index.order[k]!;
    if (fromBuild[i] && graph.nodes[i]!.parentShas.length < 2) out.push(i);
  }
  return out;
}

/** Oldest author time among the set bits of `bits`. */
export function oldestTime(bits: Uint8Array, index: TimeIndex): number {
  let t = Infinity;
  for (let i = 0; i < bits.length; i++) if (bits[i] && index.times[i]! < t) t = index.times[i]!;
  return t;
}

/**
 * The cherry-pick pool of one image: commits of `superset` (its build's history
 * authored since the oldest commit outside it) authored no earlier than the
 * oldest candidate and changing at least one path a candidate changes.
 */
export function cherryPickPool(superset: number[], candidates: Candidate[], changedOf: (index: number) => string[], index: TimeIndex): number[] {
  if (candidates.length === 0 || superset.length === 0) return [];
  let since = Infinity;
  const paths = new Set<string>();
  for (const c of candidates) {
    since = Math.min(since, index.times[c.index]!);
    for (const p of changedOf(c.index)) paths.add(p);
  }
  return superset.filter((i) => index.times[i]! >= since && changedOf(i).some((p) => paths.has(p)));
}

/**
 * What an image's judgement rests on besides its own candidates, kept with an
 * answer so a later run can judge only the new commits that touch the image
 * (stale/partial.ts), and tell when it cannot: the cherry-pick pool of a new
 * candidate lies in the build's history, authored at or after `since`.
 */
export interface PickFacts {
  /** The build commit is in HEAD's history (so no later commit of HEAD's can be in the build's). */
  inHead: boolean;
  /** Oldest author time (ms) of the non-merge commits HEAD reaches and the build does not (Infinity: none): the superset's bound. */
  oldestOutside: number;
  /** Newest author time (ms) in the build's cherry-pick superset (authoredSince from `oldestOutside`; -Infinity: empty). */
  supersetNewest: number;
  /** Oldest author time (ms) among the image's candidates (Infinity: none): the pool's bound. */
  since: number;
  /** pickKey of every superset commit authored at or after `since`, by subject and by date: a candidate whose key is here may have a partner. */
  keys: number[];
  /**
   * Set when the image had no candidate (`since` Infinity): `keys` then hold the
   * pickKeys of every superset commit that changes one of its inputs, whatever
   * its date. A commit that could pair with a candidate changes the very paths
   * it does, an input among them, so a new candidate authored before the
   * superset's newest commit may have a partner only when its key is here.
   */
  inputKeys?: true;
}

/**
 * A subject as a cherry-pick or backport rewrites it, as plausiblePicks compares them: without PR
 * numbers `(#4824)`, a cherry-pick note `(cherry-pick #4814 for 1.9)` (argo-rollouts' release
 * branches), a leading `[release-1.9]` or `Automated cherry pick of #12:`; spaces collapsed. A
 * subject that is nothing else stays as it is.
 */
export function subjectStem(subject: string): string {
  const stem = subject
    .replace(/^\s*(?:\[[^\]]*\]\s*)+/, '')
    .replace(/^\s*(?:automated\s+)?(?:cherry[- ]?pick(?:ed)?|backport(?:ed)?)(?:\s+of)?(?:\s*#\d+(?:\s*,?\s*#\d+)*)?\s*[:–-]\s*/i, '')
    .replace(/\((?:[^()]*\b(?:cherry[- ]?pick(?:ed)?|backport(?:ed)?)\b[^()]*|#\d+)\)/gi, '')
    .replace(/\s+/g, ' ')
    .trim();
  return stem === '' ? subject : stem;
}

/** The changed paths of a commit as plausiblePicks compares them (sorted, NUL-joined; '' for none). */
export const pathsKey = (paths: readonly string[]) => [...paths].sort().join('\0');

/**
 * A commit's pairing key: its changed paths with its subject's stem (`s`: subjectStem) or its
 * author date (`d`), as a 53-bit hash (cyrb53: fast over thousands of commits;
 * a collision only refuses a shortcut, never changes an answer).
 */
export function pickKey(paths: string, kind: 's' | 'd', value: string): number {
  const text = `${kind}\0${value}\0${paths}`;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A commit's two pairing keys (pickKey by subject, by date), or none when it changes no path; shared by every image's pickFacts of one judgement. */
export type PickKeyMemo = Map<number, readonly number[]>;

/** The pick facts of one image judged from `build` (history.ts judge: the same graph, bitmaps, superset and candidates). */
export function pickFacts(graph: CommitGraph, fromHead: Uint8Array, build: string, outside: Uint8Array, superset: number[], candidates: Candidate[], changedOf: (index: number) => string[], index: TimeIndex, memo: PickKeyMemo = new Map(), inputTouching?: readonly Candidate[]): PickFacts {
  const b = graph.index.get(build);
  let since = Infinity;
  for (const c of candidates) since = Math.min(since, index.times[c.index]!);
  let supersetNewest = -Infinity;
  for (const p of superset) supersetNewest = Math.max(supersetNewest, index.times[p]!);
  const keys = new Set<number>();
  const add = (p: number) => {
    let pair = memo.get(p);
    if (!pair) {
      const k = pathsKey(changedOf(p));
      memo.set(p, (pair = k === '' ? [] : [pickKey(k, 's', subjectStem(graph.nodes[p]!.subject)), pickKey(k, 'd', graph.nodes[p]!.date)]));
    }
    for (const key of pair) keys.add(key);
  };
  if (since !== Infinity) {
    for (const p of superset) if (index.times[p]! >= since) add(p);
  } else if (inputTouching) for (const c of inputTouching) add(c.index);
  const inputKeys = since === Infinity && inputTouching !== undefined;
  return { inHead: b !== undefined && fromHead[b] === 1, oldestOutside: oldestTime(outside, index), supersetNewest, since, keys: [...keys], ...(inputKeys ? { inputKeys: true as const } : {}) };
}

/**
 * Unshipped commits in the order every report lists them: newest author date
 * first; commits authored at the same second (a rebased or re-applied series
 * keeps its author dates) each before its ancestors, then by commit id. A
 * total order on the commits alone, so a run that reads the history whole, one
 * that joins kept records, and one that judges only new commits (partial.ts)
 * list them alike. Ancestry is asked of `graph` only within a tie.
 */
export function newestFirst<T extends { commit: string; date: string }>(list: readonly T[], graph: CommitGraph): T[] {
  const time = (u: T) => Date.parse(u.date);
  const sorted = [...list].sort((a, b) => time(b) - time(a) || byId(a.commit, b.commit));
  for (let s = 0; s < sorted.length; ) {
    let e = s + 1;
    while (e < sorted.length && time(sorted[e]!) === time(sorted[s]!)) e++;
    if (e - s > 1) sorted.splice(s, e - s, ...descendantsFirst(sorted.slice(s, e), graph));
    s = e;
  }
  return sorted;
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A tie (sorted by id), each commit before its ancestors: repeatedly the first, by id, that is an ancestor of none of the others left. */
function descendantsFirst<T extends { commit: string }>(tie: T[], graph: CommitGraph): T[] {
  const left = [...tie];
  const out: T[] = [];
  while (left.length > 0) {
    const k = left.findIndex((c) => !left.some((d) => d !== c && d.commit !== c.commit && graph.isAncestor(c.commit, d.commit)));
    out.push(...left.splice(k < 0 ? 0 : k, 1));
  }
  return out;
}
