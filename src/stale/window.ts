/**
 * How far back stale reads: the raw history pass (git/history.ts) streams newest
 * first from HEAD, and is stopped as soon as nothing older can change the answer:
 * - every pinned digest's introduction is settled (git/digest-window.ts: found,
 *   its first parent loaded, a revert looked past, moves followed);
 * - every build commit any image is judged from is loaded, and every commit not
 *   read yet is an ancestor of all of them (the walk's unread frontier lies in
 *   every build's history, so no unshipped commit is left unread, whatever the
 *   commit dates say);
 * - the walk is older than the oldest author date among the commits outside a
 *   build (where a cherry-pick of one of them could sit, see unshipped.ts).
 * Builds that are not in HEAD's history (a tag on another branch) are known so
 * once the walk has ended without them, and read by one more pass,
 * `git log --raw <them> --not HEAD`. The first check takes the newest 1,024
 * commits (or where the last run stopped), even when the pin-file prefetch has
 * parsed more: a history whose builds are recent is judged on those alone.
 * Reading grows by half between checks, so the checks cost little against the walk.
 */
import { analyzeLoaded, viewOf } from '../git/digest-history.js';
import { changeKey, digestChange, DigestArchaeology, NO_DIGESTS, type DigestChanges, type HistoryView } from '../git/digest-window.js';
import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { cacheFor, findGitPlace, type Cache } from '../cache/index.js';
import { historyRewriters, JoinedHistory } from '../git/history-join.js';
import { BlobBatch, BlobDigests, HistoryStream, isNullBlob, type CommitStream, type HistoryCommit, type RawEntry } from '../git/history.js';
import type { CommitGraph } from '../git/graph.js';
import { resolveCommitAndPrefix } from '../git/objects.js';
import { readShallowState, type ShallowState } from '../git/shallow.js';
import { readTags } from '../git/tags.js';
import type { DigestHistoryResult } from '../git/digest-history.js';

/** A raw pass started before the scan (stale/repo.ts), handed to computeStale. */
export interface StartedHistory {
  /** The revision it was started from, as given (HEAD, a branch, a sha). */
  rev: string;
  stream: CommitStream;
  /** The pin files' blobs, read ahead once the scan has named the files (`prefetch`). */
  blobs?: BlobDigests;
  /** Digest changes by blob pair, kept by earlier runs (their blobs are not read) and grown by this one. */
  changes: DigestChanges;
  /** Whether this run keeps what it read for the next (the cache is on, and history is trusted): `readWindow` then keeps every change whose blobs it read. */
  keeps?: boolean;
  /**
   * Once the scan knows which files hold pins: read the blobs the first commits'
   * changes to them name, so `cat-file` works while the recipe model is read;
   * with `pinLike`, also those of the changes it accepts that had an old blob
   * (the versions of files that may have pinned a digest before: digest-window.ts).
   */
  prefetch(files: Iterable<string>, pinLike?: (path: string) => boolean): void;
  /** Stop git (the run ended before computeStale took the pass). */
  close(): void;
  /** Git processes it has started so far (the walk, the facts below unless a kept answer's check asked them, and the blob batch once it runs). */
  processes(): number;
  /**
   * The revision's commit and the root's prefix, and the shallow state, asked at
   * start (two short git processes) so computeStale does not wait for them one
   * after the other once the scan is done; with `wantTags`, the tags too (git-tag
   * provenance reads them). Rejections are held until awaited.
   */
  facts: { head: Promise<{ commit?: string; prefix?: string }>; shallow: Promise<ShallowState>; tags?: Promise<Map<string, string>> };
}

/**
 * What a kept answer's check (stale/reuse.ts openAnswer) asked git that a full
 * judgement needs as well: the revision's commit, the root's prefix and the shallow
 * state (startHistory asks them otherwise), and the tags (git-tag provenance reads
 * them otherwise). `facts` is undefined when that rev-parse could not tell: the
 * judgement then asks its own, which reports the failure as it always has.
 */
export interface AskedFacts {
  rev: string;
  facts: Promise<{ head: { commit: string; prefix: string }; shallow: ShallowState } | undefined>;
  tags?: Promise<Map<string, string>>;
}

/** Commits whose pin-file blobs `prefetch` asks for before computeStale does. */
const PREFETCH_COMMITS = 4096;

/** The cache namespace of commit records (history facts by commit id). */
export const HISTORY_CACHE_NS = 'history';

/** What the cache keeps of the raw pass: every commit record read so far, and the newest commit they were read from. */
interface KeptHistory {
  tip: string;
  records: HistoryCommit[];
  /** How many commits that run's walk read. */
  read: number;
  /** Digest changes by blob pair (digest-window.ts `changeKey`): key, added, removed. */
  changes?: [string, string[], string[]][];
  /** Names this entry for the delta written on top of it. */
  id?: string;
}

/**
 * What later runs add to a kept history, kept apart so a run that reads a few new
 * commits writes those, not every record again (the whole entry is ~6 MB on
 * cozystack); valid only on the entry it names (`base`: its id).
 */
interface KeptDelta {
  base: string;
  tip: string;
  read: number;
  records: HistoryCommit[];
  changes: [string, string[], string[]][];
}

/** Records a delta may hold before the whole entry is written again (a delta is read and rewritten whole by every run). */
const deltaLimit = (baseRecords: number) => Math.max(512, baseRecords >> 3);

/** What a run read from the cache, for `keepHistory`. */
interface Opened {
  stream: CommitStream;
  /** Every kept record (entry and delta), and the delta's alone. */
  kept?: Map<string, HistoryCommit>;
  delta?: HistoryCommit[];
  changes: DigestChanges;
  /** The entry's id and how many of `changes` it holds (the rest are the delta's). */
  base?: { id: string; changes: number };
  /** Why records are neither joined nor kept in this repository (historyRewriters). */
  untrusted?: string;
}

const wellFormed = (c: HistoryCommit) => c && typeof c.sha === 'string' && typeof c.tree === 'string' && Array.isArray(c.parentShas) && Array.isArray(c.entries) && typeof c.subject === 'string';

function addChanges(into: DigestChanges, kept: unknown): void {
  for (const c of Array.isArray(kept) ? (kept as unknown[]) : []) {
    if (Array.isArray(c) && typeof c[0] === 'string' && Array.isArray(c[1]) && Array.isArray(c[2])) into.set(c[0], { added: new Set(c[1] as string[]), removed: new Set(c[2] as string[]) });
  }
}

const keptChangesOf = (changes: Iterable<[string, { added: ReadonlySet<string>; removed: ReadonlySet<string> }]>): [string, string[], string[]][] => [...changes].map(([k, ch]) => [k, [...ch.added], [...ch.removed]]);

/**
 * The kept history's key. Raw paths are --relative to the root, so records are
 * the root's place in its work tree (`""` at the top, `deploy` below it); not
 * the folder it is checked out in: commit ids name the same commits in every
 * clone, so a clone made afresh elsewhere (a CI workspace whose path changes
 * from job to job) and every worktree of one repository share them. Outside a
 * work tree found without git (the pass then fails or the folder is per root:
 * cache/engine.ts whereIs), or with GIT_WORK_TREE set, the real root as before.
 */
export function historyKey(repo: string, delta = false): string {
  let root = resolve(repo);
  try {
    root = realpathSync(root);
  } catch {
    /* the pass reports a missing repository */
  }
  // GIT_WORK_TREE moves git's top away from the folder holding .git: the real root, as before
  const place = process.env.GIT_WORK_TREE ? undefined : findGitPlace(root);
  let top: string | undefined;
  try {
    top = place ? realpathSync(place.top) : undefined;
  } catch {
    top = undefined;
  }
  const at = top === undefined ? undefined : relative(top, root);
  const where = at === undefined || at.startsWith('..') || isAbsolute(at) ? root : ['in work tree', at.split(sep).join('/')];
  return JSON.stringify([delta ? 'commits-delta' : 'commits', where]);
}

/**
 * The pass from `rev`: with kept records (the cache, from an earlier run), only
 * the commits they lack are diffed (history-join.ts); else the plain raw pass.
 */
function openStream(repo: string, rev: string, cache: Cache): Opened {
  // replace refs or grafts: the same commit ids may show other trees, so records are neither joined nor kept
  const untrusted = cache.enabled ? historyRewriters(repo) : undefined;
  if (untrusted) {
    cache.note(`history: no commit records kept or joined: ${untrusted}`);
    return { stream: HistoryStream.start(repo, [rev]), changes: new Map(), untrusted };
  }
  const kept = cache.enabled ? cache.getValue<KeptHistory>(HISTORY_CACHE_NS, historyKey(repo)) : undefined;
  if (!kept || typeof kept.tip !== 'string' || !Array.isArray(kept.records) || kept.records.length === 0) return { stream: HistoryStream.start(repo, [rev]), changes: new Map() };
  // only well-formed records (the entry is ours and checksummed; a record of another shape is simply not known)
  const records = new Map(kept.records.filter(wellFormed).map((c) => [c.sha, c]));
  const changes: DigestChanges = new Map();
  addChanges(changes, kept.changes);
  let tip = kept.tip;
  let read = typeof kept.read === 'number' ? kept.read : 0;
  const base = typeof kept.id === 'string' ? { id: kept.id, changes: changes.size } : undefined;
  // what the runs since added, when written on top of this very entry
  const delta = base ? cache.getValue<KeptDelta>(HISTORY_CACHE_NS, historyKey(repo, true)) : undefined;
  let deltaRecords: HistoryCommit[] | undefined;
  if (base && delta && delta.base === base.id && typeof delta.tip === 'string' && Array.isArray(delta.records)) {
    deltaRecords = delta.records.filter(wellFormed);
    for (const c of deltaRecords) records.set(c.sha, c);
    addChanges(changes, delta.changes);
    tip = delta.tip;
    read = typeof delta.read === 'number' ? delta.read : read;
  }
  return { stream: new JoinedHistory(repo, rev, records, tip, read), kept: records, changes, ...(deltaRecords ? { delta: deltaRecords } : {}), ...(base ? { base } : {}) };
}

/** Keep the records the pass read (with those kept before) for the next run; says under -v what was joined. */
function keepHistory(repo: string, cache: Cache, stream: CommitStream, opened: Opened, keptChanges: number): void {
  const { kept, changes, base } = opened;
  if (!cache.enabled || opened.untrusted || stream.failed || stream.commits.length === 0) return;
  const joined = stream instanceof JoinedHistory ? stream.stats : undefined;
  if (joined) cache.note(`history: ${joined.kept} commit(s) from kept records, ${joined.fresh} read from git${joined.fellBack ? `; then read plainly: ${joined.fellBack}` : ''}`);
  if (kept) cache.note(`history: ${keptChanges} digest change(s) of pin files kept, ${changes.size - keptChanges} worked out from blobs`);
  const added = kept ? stream.commits.filter((c) => !kept.has(c.sha)) : stream.commits;
  if (kept && added.length === 0 && changes.size === keptChanges) return;
  const tip = stream.commits[0]!.sha;
  const read = stream.commits.length;
  const delta = [...(opened.delta ?? []), ...added];
  if (kept && base && delta.length <= deltaLimit(kept.size - (opened.delta?.length ?? 0))) {
    // a few new records: written on top of the entry (whose own changes come first in `changes`)
    cache.putValue(HISTORY_CACHE_NS, historyKey(repo, true), { base: base.id, tip, read, records: delta, changes: keptChangesOf([...changes].slice(base.changes)) } satisfies KeptDelta);
    return;
  }
  const records = new Map(kept);
  for (const c of added) records.set(c.sha, c);
  // a new id: the delta written on the entry before is not this one's
  cache.putValue(HISTORY_CACHE_NS, historyKey(repo), { tip, records: [...records.values()], read, changes: keptChangesOf(changes), id: randomUUID() } satisfies KeptHistory);
}

/**
 * Whose blobs the digest archaeology reads: a change to one of the pin files, or
 * one that `pinLike` accepts with an old blob (a former pin file's version).
 */
function blobsAsked(files: ReadonlySet<string>, pinLike: ((path: string) => boolean) | undefined): (e: RawEntry) => boolean {
  if (!pinLike) return (e) => files.has(e.path);
  // per path, once: 2 a pin file, 1 a file pinLike accepts, 0 neither
  const kinds = new Map<string, number>();
  return (e) => {
    let kind = kinds.get(e.path);
    if (kind === undefined) kinds.set(e.path, (kind = files.has(e.path) ? 2 : pinLike(e.path) ? 1 : 0));
    return kind === 2 || (kind === 1 && !isNullBlob(e.oldBlob));
  };
}

/**
 * Start the raw pass from `rev` now; nothing is awaited (errors surface when it is read).
 * `asked`: the commit, prefix and shallow state a kept answer's check asked already
 * (stale/reuse.ts openAnswer), for the same revision: git is not asked again, unless
 * that check could not tell (then as without). `wantTags`: the judgement asks git-tag,
 * so the tags (`facts.tags`) are listed now too, unless that check listed them.
 */
export function startHistory(repo: string, rev = 'HEAD', asked?: Pick<AskedFacts, 'rev' | 'facts' | 'tags'>, wantTags = false): StartedHistory {
  const cache = cacheFor(repo);
  const opened = openStream(repo, rev, cache);
  const keptChanges = opened.changes.size;
  let closed = false;
  let factProcesses = 0;
  const own = <T>(ask: () => Promise<T>) => () => {
    factProcesses++;
    return ask();
  };
  const ownHead = own(() => resolveCommitAndPrefix(repo, rev));
  const ownShallow = own(() => readShallowState(repo));
  const given = asked?.rev === rev ? asked.facts.catch(() => undefined) : undefined;
  const facts: StartedHistory['facts'] = given
    ? { head: given.then((f) => f?.head ?? ownHead()), shallow: given.then((f) => f?.shallow ?? ownShallow()) }
    : { head: ownHead(), shallow: ownShallow() };
  // git-tag's tag listing, when the caller will judge with it: asked beside the pass, not once the tree is derived
  const tags = asked?.tags ?? (wantTags ? own(() => readTags(repo))() : undefined);
  if (tags) facts.tags = tags;
  for (const p of Object.values(facts)) (p as Promise<unknown>).catch(() => undefined); // awaited (and reported) by computeStale
  const started: StartedHistory = {
    rev,
    stream: opened.stream,
    changes: opened.changes,
    keeps: cache.enabled && !opened.untrusted,
    facts,
    prefetch(files, pinLike) {
      if (started.blobs) return;
      const texts = (started.blobs = new BlobDigests(new BlobBatch(repo)));
      const asks = blobsAsked(new Set(files), pinLike);
      let asked = 0;
      const ask = () => {
        for (const commits = started.stream.commits; asked < commits.length; asked++) {
          for (const e of commits[asked]!.entries) if (asks(e) && !started.changes.has(changeKey(e))) [e.oldBlob, e.newBlob].forEach((id) => isNullBlob(id) || texts.want(id));
        }
      };
      // grow parses what git has written so far before it first waits: those commits' blobs are asked now,
      // so cat-file starts while the recipe model is read, not once the event loop next turns
      const grown = started.stream.grow(PREFETCH_COMMITS);
      ask();
      void grown.then(ask, () => undefined); // a failure: computeStale reads the pass again and reports it
    },
    close() {
      started.stream.stop();
      started.blobs?.batch.close();
      if (closed) return;
      closed = true;
      keepHistory(repo, cache, started.stream, opened, keptChanges);
    },
    // the pass (one process, more when kept records are joined), the rev-parses and tag listing of `facts` (none when a kept answer's check asked them), the blob reader
    processes: () => started.stream.processes() + factProcesses + (started.blobs?.batch.running ? 1 : 0),
  };
  return started;
}

export interface WindowQuestion {
  /** Digests whose introduction is wanted, and the pin files searched. */
  digests: Set<string>;
  files: string[];
  /** Per digest, the pin files that hold it now (a digest one of them held before an addition was copied there: digest-window.ts). */
  holders?: ReadonlyMap<string, readonly string[]>;
  /** Paths the scan would read as pin files: one a commit took a wanted digest out of (not moving it) is searched too (digest-window.ts). */
  pinLike?: (path: string) => boolean;
  /**
   * The build commits the images would be judged from, given the digest answers
   * so far (the caller's provenance chain). Commits not in the view are asked to be read.
   */
  builds(history: DigestHistoryResult, graph: CommitGraph): string[];
}

export interface WindowAnswer {
  view: HistoryView;
  history: DigestHistoryResult;
  /** Commits read (main walk + off-HEAD builds), and whether the walk was cut short. */
  read: number;
  stopped: boolean;
}

/** Read until the question is answered (`step`: tests, see below). */
export async function readWindow(repo: string, head: string, started: StartedHistory, question: WindowQuestion, step?: number): Promise<WindowAnswer> {
  const { stream } = started;
  const texts = started.blobs ?? new BlobDigests(new BlobBatch(repo));
  const batch = texts.batch;
  const arch = new DigestArchaeology(texts, started.changes);
  const asks = blobsAsked(new Set(question.files), question.pinLike);
  try {
    let extra: HistoryCommit[] = [];
    let offHeadRead = false;
    // `step` (tests): read exactly this many more commits per check, to test every stopping point
    // a walk joined from kept records checks first where the last run stopped (the stop rules make every
    // settled point answer the same, so this only skips checks that would have read on)
    let target = step ?? Math.max(1024, (stream instanceof JoinedHistory ? await stream.resumeAt() : undefined) ?? 0);
    let prefetched = 0;
    for (;;) {
      await stream.grow(target);
      // pin-file blobs of the commits read since the last check (and former pin files'), asked before the analysis needs them
      for (; prefetched < stream.commits.length; prefetched++) {
        for (const e of stream.commits[prefetched]!.entries) {
          if (!asks(e) || started.changes.has(changeKey(e))) continue;
          if (!isNullBlob(e.oldBlob)) texts.want(e.oldBlob);
          if (!isNullBlob(e.newBlob)) texts.want(e.newBlob);
        }
      }
      // the first check takes `target` commits even when more are parsed already (the pin-file prefetch reads ahead
      // up to PREFETCH_COMMITS): a history whose builds are recent is settled there, and judged on those alone
      const loaded = stream.commits.slice(0, target);
      const ended = stream.ended && loaded.length === stream.commits.length;
      // digests are searched in HEAD's history only; builds off it join the graph
      const mainView = viewOf(loaded, ended);
      const commits = merged(mainView.commits, extra);
      const view = extra.length === 0 ? mainView : viewOf(commits, ended);
      // from the newest additions, widen to the oldest ones outside the history every build shares, until that settles
      let common: Uint8Array = new Uint8Array(view.graph.nodes.length).fill(1);
      let answer: { result: DigestHistoryResult; complete: boolean };
      let builds: string[];
      for (;;) {
        answer = await analyzeLoaded(mainView, arch, question.digests, question.files, common, question.holders, question.pinLike);
        builds = [...new Set(question.builds(answer.result, view.graph))];
        if (!answer.complete || builds.some((b) => !view.graph.has(b))) break;
        const next = commonHistory(view.graph, builds);
        if (next.every((v, i) => v === common[i])) break;
        common = next;
      }
      const missing = builds.filter((b) => !view.graph.has(b));
      if (ended && missing.length > 0 && !offHeadRead) {
        // builds HEAD's history does not hold (a tag on another branch): their own history, once
        offHeadRead = true;
        extra = await HistoryStream.start(repo, missing, [head]).all();
        continue;
      }
      const done = answer.complete && missing.length === 0 && settled(view, builds, common, loaded);
      if (ended || done) {
        const stopped = !ended;
        stream.stop();
        return { view, history: answer.result, read: commits.length, stopped };
      }
      // a check that did not settle: everything parsed already, and half as much again
      target = step === undefined ? Math.max(Math.ceil(loaded.length * 1.5) + 64, stream.commits.length) : target + step;
    }
  } finally {
    stream.stop();
    batch.close();
    if (started.keeps) keepReadChanges(stream.commits, asks, texts, started.changes);
  }
}

/**
 * Add to `changes` the change of every entry `asks` takes whose blobs were read
 * (the prefetch reads ahead of what the analysis settles on): a fact of two blob
 * ids, kept with the history so that a later run that searches for a digest this
 * one did not (a pin bump: is the new digest a return?) reads no blob of them again.
 */
export function keepReadChanges(commits: readonly HistoryCommit[], asks: (e: RawEntry) => boolean, texts: BlobDigests, changes: DigestChanges): number {
  const held = (id: string): ReadonlySet<string> | undefined => (isNullBlob(id) ? NO_DIGESTS : texts.has(id) ? (texts.digests(id) ?? NO_DIGESTS) : undefined);
  let added = 0;
  for (const c of commits) {
    for (const e of c.entries) {
      if (!asks(e)) continue;
      const key = changeKey(e);
      if (changes.has(key)) continue;
      const before = held(e.oldBlob);
      const after = before && held(e.newBlob);
      if (!before || !after) continue;
      changes.set(key, digestChange(before, after));
      added++;
    }
  }
  return added;
}

function merged(main: readonly HistoryCommit[], extra: readonly HistoryCommit[]): HistoryCommit[] {
  if (extra.length === 0) return main.slice();
  const seen = new Set(main.map((c) => c.sha));
  return [...main, ...extra.filter((c) => !seen.has(c.sha))];
}

/** 1 for the commits in the history of every build (all of them when there is none). */
function commonHistory(graph: CommitGraph, builds: string[]): Uint8Array {
  const common = new Uint8Array(graph.nodes.length).fill(1);
  for (const b of builds) {
    const bits = graph.ancestors(b);
    for (let i = 0; i < common.length; i++) common[i] &= bits[i]!;
  }
  return common;
}

/**
 * Every unread commit in the history of every build (all loaded), and the walk
 * older than the oldest author date outside a build.
 */
function settled(view: HistoryView, builds: string[], common: Uint8Array, walked: readonly HistoryCommit[]): boolean {
  const { graph } = view;
  if (builds.length === 0) return true;
  const n = graph.nodes.length;
  // a frontier commit is in a build's history when some loaded child is; all of them must be, for every build
  const frontier = new Map<string, number[]>();
  graph.nodes.forEach((node, i) => {
    for (const p of node.parentShas) {
      if (graph.index.has(p)) continue;
      const list = frontier.get(p);
      if (list) list.push(i);
      else frontier.set(p, [i]);
    }
  });
  for (const b of builds) {
    const bits = graph.ancestors(b);
    for (const children of frontier.values()) if (!children.some((c) => bits[c] === 1)) return false;
  }
  // cherry-pick pools (unshipped.ts authoredSince): commits authored since the oldest outside commit
  let since = Infinity;
  for (let i = 0; i < n; i++) {
    if (common[i] || graph.nodes[i]!.parentShas.length > 1) continue;
    const t = Date.parse(graph.nodes[i]!.date);
    if (t < since) since = t;
  }
  const last = walked[walked.length - 1];
  return last === undefined || !(since <= last.commitTime * 1000);
}
