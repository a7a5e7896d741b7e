/**
 * Digest archaeology on the raw history pass (git/history.ts): for each wanted
 * digest, the commit that introduced it into a pin file, from the old and new
 * blobs of the raw entries that change those files (read through one
 * `cat-file --batch`, each blob once), never a `log -p` over all history.
 *
 * A commit adds a digest to a file when the new blob holds it and the old one
 * does not (a retag that rewrites the line keeps it: no addition), and removes it
 * in the opposite case. The introduction is the oldest adding commit, in git's
 * topological order, within the window read: the commits outside the history
 * common to every build (stale/window.ts reads exactly that far; over the whole
 * history it is the oldest of all, as `log -p` answered). An introduction that
 * is a `git revert` looks further back, so a digest reverted back to is dated by
 * its earlier addition; so does one that a commit the walk read took out of a
 * pin file before (a return: a rollback by hand, an older build stamped again),
 * however far back its first addition lies; the newest such later addition is
 * named with the introduction (`addedLater`). When the introducing
 * commit also removed the digest from a file outside the searched ones (a move),
 * that file's history before the move is searched the same way (two rounds, as
 * before: a digest moved more often is said to be truncated). An addition of a
 * digest that a pin file already held in the adding commit's first parent (a
 * copy: a second chart pinning the same image) introduces nothing: the addition
 * before it in that parent's history is looked for, so the image is dated by its
 * first pin, whatever other images are judged beside it (which files held it is
 * read as `<parent>:./<file>` through the same `cat-file --batch`, and kept with
 * the digest changes). Asked to (`pinLike`), a file that is no pin file now but
 * that the scan would read as one, from which a loaded commit took a wanted
 * digest out (deleting the file, or editing the pin away) without adding it
 * elsewhere in the same commit (that is a move), is searched as the pin files
 * are: a digest first pinned in a chart that a copy replaced and a later commit
 * removed, or that no longer pins the image, is dated by that first pin, not by
 * the copy.
 *
 * `analyze` is pure over what is loaded and says whether more history is
 * needed (`complete`) or blobs are still unread (`pending`: wait for them, ask again).
 */
import type { CommitGraph } from './graph.js';
import { isNullBlob, type HistoryCommit, type RawEntry } from './history.js';

export interface DigestIntroduction {
  digest: string;
  commit: string;
  /** Parents as git printed them; empty for a root commit or a shallow boundary. */
  parentShas: string[];
  date: string;
  subject: string;
  /** File the digest was added to in that commit. */
  file: string;
  /** Commits that moved the digest here from another file, newest first (seen through). */
  movedBy: { commit: string; from: string[] }[];
  /** The newest later addition of the digest to the pin files (what `git log` of the pin shows last), when there is one. */
  addedLater?: LaterAddition;
  /** `file` is no pin file now: the commit that deleted it (the newest deletion read), when the history deleted it. */
  fileDeletedBy?: CommitFacts;
  /** `file` is no pin file now but still there: the commit that took the digest out of it (the newest such commit read). */
  takenOutBy?: CommitFacts;
}

/** A commit as evidence names it. */
export interface CommitFacts {
  commit: string;
  subject: string;
  date: string;
}

/**
 * A later addition of an introduced digest, and what it was: a `git revert` back
 * to it, a copy (a pin file held it in its parent), a return (a commit before it
 * took it out), or an addition again on another line of history (a release
 * branch stamping it too). `others`: how many more later additions were read.
 */
export interface LaterAddition {
  commit: string;
  subject: string;
  date: string;
  file: string;
  as: 'revert' | 'copy' | 'return' | 'again';
  others: number;
}

export interface DigestHistoryResult {
  found: Map<string, DigestIntroduction>;
  /** Git processes rounds used (1 + move rounds), for explain. */
  rounds: number;
  /** Digests whose move chain was longer than the round limit. */
  truncated: string[];
}

const MAX_MOVES = 2;
const REVERT = /^Revert "/;

/** What is loaded: commits in walk order, their graph and topological positions. */
export interface HistoryView {
  commits: readonly HistoryCommit[];
  graph: CommitGraph;
  /** Position in `--topo-order` (newest first) per node. */
  topo: Int32Array;
  /** The whole history is loaded (nothing more to read). */
  ended: boolean;
}

/** The digests blobs hold: `digests` answers what is read (undefined: not a blob); `want` notes a blob to read before asking again. */
export interface BlobSource {
  digests(id: string): ReadonlySet<string> | undefined;
  has(id: string): boolean;
  want(id: string): void;
  settled(): Promise<void>;
}

/** The digests of a missing blob (a null id: the file added or deleted). */
export const NO_DIGESTS: ReadonlySet<string> = new Set();

/** What a raw entry does to the digests of its file: added and removed (sorted, as kept by the cache). */
export interface DigestChange {
  added: ReadonlySet<string>;
  removed: ReadonlySet<string>;
}

/**
 * Digest changes by blob pair (`changeKey`): facts of two immutable blob ids, so
 * a later run (the `history` cache, stale/window.ts) answers them without
 * reading either blob. The archaeology adds every change it works out.
 */
export type DigestChanges = Map<string, DigestChange>;

/** What going from the digests `before` to those `after` adds and removes. */
export const digestChange = (before: ReadonlySet<string>, after: ReadonlySet<string>): DigestChange => ({ added: new Set([...after].filter((d) => !before.has(d))), removed: new Set([...before].filter((d) => !after.has(d))) });

/** The key of an entry's blob pair in `DigestChanges`. */
export const changeKey = (entry: RawEntry): string => `${entry.oldBlob} ${entry.newBlob}`;

/** The key under which `DigestChanges` keeps the digests `file` held at `commit` (as `added`; an immutable fact too). */
export const heldKey = (commit: string, file: string): string => `held ${commit}:${file}`;

export class DigestArchaeology {
  private readonly digestCache = new Map<string, ReadonlySet<string>>();

  /** Wait for the blobs the last `analyze` wanted. */
  settled(): Promise<void> {
    return this.blobs.settled();
  }

  /** path → loaded commit indices with an entry for it (extended as commits load). */
  private readonly byPath = new Map<string, { commit: number; entry: RawEntry }[]>();
  private indexed = 0;

  /** `known`: digest changes worked out before (read instead of the blobs), and where new ones are added. */
  constructor(private readonly blobs: BlobSource, private readonly known: DigestChanges = new Map()) {}

  private digests(id: string): ReadonlySet<string> | undefined {
    if (isNullBlob(id)) return NO_DIGESTS;
    const cached = this.digestCache.get(id);
    if (cached) return cached;
    if (!this.blobs.has(id)) {
      this.blobs.want(id);
      return undefined;
    }
    const out = this.blobs.digests(id) ?? NO_DIGESTS;
    this.digestCache.set(id, out);
    return out;
  }

  /** Digests an entry adds and removes (undefined while its blobs are unread). */
  private change(entry: RawEntry): DigestChange | undefined {
    const cached = this.changes.get(entry);
    if (cached) return cached;
    const key = changeKey(entry);
    let ch = this.known.get(key);
    if (!ch) {
      const before = this.digests(entry.oldBlob);
      const after = this.digests(entry.newBlob);
      if (!before || !after) return undefined;
      ch = digestChange(before, after);
      this.known.set(key, ch);
    }
    this.changes.set(entry, ch);
    return ch;
  }

  private readonly changes = new WeakMap<RawEntry, DigestChange>();

  private index(view: HistoryView): void {
    for (; this.indexed < view.commits.length; this.indexed++) {
      for (const entry of view.commits[this.indexed]!.entries) {
        const list = this.byPath.get(entry.path);
        if (list) list.push({ commit: this.indexed, entry });
        else this.byPath.set(entry.path, [{ commit: this.indexed, entry }]);
      }
    }
  }

  /** The pin files searched first, indexed over all loaded commits at once. */
  private primary: { key: string; files: Set<string>; done: number; byDigest: Map<string, { commit: number; file: string }[]>; removals: Map<string, { commit: number; file: string }[]> } | undefined;

  /** Per file outside the pin files: how many of its entries are indexed, and digest → the commits (indices) adding it there, and taking it out. */
  private readonly addsByFile = new Map<string, { done: number; byDigest: Map<string, number[]>; removals: Map<string, number[]> }>();

  /**
   * Additions of `digest` to `files` among the loaded commits accepted by `within`,
   * as commit index → first file (in path order), newest first in topo order.
   * `pending` is set when a blob is still unread.
   */
  private additions(view: HistoryView, digest: string, files: Set<string>, within: (i: number) => boolean, state: { pending: boolean }): { commit: number; file: string }[] {
    const hits = new Map<number, string>();
    if (files === this.primary?.files) {
      // the pin files: one index over all of them, digest → (commit, file)
      const p = this.primary;
      for (; p.done < view.commits.length; p.done++) {
        let ready = true;
        for (const entry of view.commits[p.done]!.entries) if (files.has(entry.path) && !this.change(entry)) ready = false;
        if (!ready) {
          state.pending = true;
          break;
        }
        for (const entry of view.commits[p.done]!.entries) {
          if (!files.has(entry.path)) continue;
          const ch = this.change(entry)!;
          for (const d of ch.added) {
            const list = p.byDigest.get(d);
            if (list) list.push({ commit: p.done, file: entry.path });
            else p.byDigest.set(d, [{ commit: p.done, file: entry.path }]);
          }
          for (const d of ch.removed) {
            const list = p.removals.get(d);
            if (list) list.push({ commit: p.done, file: entry.path });
            else p.removals.set(d, [{ commit: p.done, file: entry.path }]);
          }
        }
      }
      for (const { commit, file } of p.byDigest.get(digest) ?? []) {
        if (!within(commit)) continue;
        const prev = hits.get(commit);
        if (prev === undefined || file < prev) hits.set(commit, file);
      }
      return [...hits].map(([commit, file]) => ({ commit, file })).sort((a, b) => view.topo[a.commit]! - view.topo[b.commit]!);
    }
    for (const file of files) {
      const entries = this.byPath.get(file) ?? [];
      let idx = this.addsByFile.get(file);
      if (!idx) this.addsByFile.set(file, (idx = { done: 0, byDigest: new Map(), removals: new Map() }));
      for (; idx.done < entries.length; idx.done++) {
        const { commit, entry } = entries[idx.done]!;
        const ch = this.change(entry);
        if (!ch) {
          state.pending = true;
          break;
        }
        for (const d of ch.added) {
          const list = idx.byDigest.get(d);
          if (list) list.push(commit);
          else idx.byDigest.set(d, [commit]);
        }
        for (const d of ch.removed) {
          const list = idx.removals.get(d);
          if (list) list.push(commit);
          else idx.removals.set(d, [commit]);
        }
      }
      for (const commit of idx.byDigest.get(digest) ?? []) {
        if (!within(commit)) continue;
        const prev = hits.get(commit);
        if (prev === undefined || file < prev) hits.set(commit, file);
      }
    }
    return [...hits].map(([commit, file]) => ({ commit, file })).sort((a, b) => view.topo[a.commit]! - view.topo[b.commit]!);
  }

  /**
   * The introduction of every wanted digest into `paths` as far as the loaded
   * history tells, and whether the answer is final (`complete`: nothing unread
   * could change it, given that the caller reads until every build is loaded).
   * `common` marks the commits in the history of every build (the walk's
   * floor): additions there are not taken (see `pickIntro`). `holders`: per
   * digest, the pin files that hold it now (the images' pins), asked besides the
   * files the loaded history adds it to whether they held it before an addition.
   */
  analyze(view: HistoryView, wanted: Iterable<string>, paths: string[], common?: Uint8Array, holders?: ReadonlyMap<string, readonly string[]>, pinLike?: (path: string) => boolean): { result: DigestHistoryResult; complete: boolean; pending: boolean } {
    this.index(view);
    const found = new Map<string, DigestIntroduction>();
    const truncated: string[] = [];
    const state = { pending: false, incomplete: false };
    let moveRounds = 0;
    const { graph } = view;
    const digests = new Set(wanted);
    // the pin files, and the files the scan would read as pin files that a loaded commit took a wanted digest out of
    const former = pinLike ? this.formerPinFiles(view, digests, paths, pinLike, state) : [];
    const searched = former.length === 0 ? paths : [...paths, ...former].sort();
    const key = searched.join('\0');
    if (this.primary?.key !== key) this.primary = { key, files: new Set(searched), done: 0, byDigest: new Map(), removals: new Map() };
    const primary = this.primary;
    for (const digest of digests) {
      let files = primary.files;
      const movedFrom = new Set<string>(); // files searched after a move (the pin files are `primary.files`)
      let scope: (i: number) => boolean = () => true;
      for (let moves = 0; ; moves++) {
        const adds = this.additions(view, digest, files, scope, state);
        if (adds.length === 0) {
          // none loaded: older history may hold it (a move with nothing older keeps the move commit)
          if (!view.ended) state.incomplete = true;
          break;
        }
        const mayHold = this.mayHold(digest, files, holders);
        const pick = this.pickIntro(view, adds, common, state, digest, mayHold, files);
        const c = view.commits[pick.commit]!;
        const prev = found.get(digest);
        const movedBy = prev ? [{ commit: prev.commit, from: [...files] }, ...prev.movedBy] : [];
        // what the pin's own history shows last, when that is not the introduction (the first round: the pin files)
        const addedLater = moves === 0 ? this.laterAddition(view, adds, pick.commit, digest, mayHold, state) : prev?.addedLater;
        // the file it was introduced in holds it no more (a former pin file, or a pin file that pins something else now): why
        const left = former.includes(pick.file) || (moves === 0 && holders !== undefined && !holders.get(digest)?.includes(pick.file)) ? this.leftBy(view, pick.file, digest) : undefined;
        found.set(digest, { digest, commit: c.sha, parentShas: c.parentShas, date: c.date, subject: c.subject, file: pick.file, movedBy, ...(addedLater ? { addedLater } : {}), ...left });
        if (moves >= MAX_MOVES) {
          truncated.push(digest);
          break;
        }
        // a move: the introducing commit removed the digest from a file not searched yet
        const from: string[] = [];
        for (const entry of c.entries) {
          if (primary.files.has(entry.path) || movedFrom.has(entry.path) || isNullBlob(entry.oldBlob)) continue;
          const ch = this.change(entry);
          if (!ch) state.pending = true;
          else if (ch.removed.has(digest)) from.push(entry.path);
        }
        if (from.length === 0 || c.parentShas.length === 0) break;
        const parent = c.parentShas[0]!;
        if (!graph.has(parent)) {
          if (!view.ended) state.incomplete = true;
          break;
        }
        const before = graph.ancestors(parent);
        scope = (i) => before[i] === 1;
        files = new Set(from);
        for (const f of from) movedFrom.add(f);
        moveRounds = Math.max(moveRounds, moves + 1);
      }
    }
    return { result: { found, rounds: 1 + 2 * moveRounds, truncated }, complete: !state.pending && !state.incomplete, pending: state.pending };
  }

  /** Every entry of the loaded history that may take a digest out of a path `pinLike` accepts (it had an old blob), with its commit (collected as commits load). */
  private readonly departures = { done: 0, found: [] as { commit: number; entry: RawEntry }[], last: undefined as { key: string; paths: readonly string[]; files: string[] } | undefined };

  /**
   * The paths that are no pin files now but that the scan would read as pin
   * files (`pinLike`), from which the newest loaded commit that took one of
   * `wanted` out (deleting the file or editing it) did not add it to another
   * such file (that is a move, followed as one by `analyze`, an earlier return
   * included). Blobs are read through the batch (`state.pending` while
   * unread); the answers are kept with the digest changes, so a later run
   * reads none.
   */
  private formerPinFiles(view: HistoryView, wanted: ReadonlySet<string>, paths: readonly string[], pinLike: (path: string) => boolean, state: { pending: boolean }): string[] {
    const seen = this.departures;
    for (; seen.done < view.commits.length; seen.done++) {
      for (const entry of view.commits[seen.done]!.entries) if (pinLike(entry.path) && !isNullBlob(entry.oldBlob)) seen.found.push({ commit: seen.done, entry });
    }
    if (seen.found.length === 0) return [];
    // asked again over the same loaded commits (the window widening its floor): the same answer, once every blob was read
    const key = `${seen.found.length}\0${[...wanted].join(',')}`;
    if (seen.last?.key === key && seen.last.paths === paths) return seen.last.files;
    const current = new Set(paths);
    // per file and digest, the newest loaded commit that took the digest out, and whether it moved it (added it to another such file)
    const newest = new Map<string, { topo: number; moved: boolean }>();
    for (const { commit, entry } of seen.found) {
      if (current.has(entry.path)) continue;
      const ch = this.change(entry);
      if (!ch) {
        state.pending = true;
        continue;
      }
      if (ch.removed.size === 0) continue;
      const held = [...ch.removed].filter((d) => wanted.has(d));
      if (held.length === 0) continue;
      const addedHere = new Set<string>();
      let unread = false;
      for (const other of view.commits[commit]!.entries) {
        if (other === entry || isNullBlob(other.newBlob) || !(current.has(other.path) || pinLike(other.path))) continue;
        const och = this.change(other);
        if (!och) unread = true;
        else for (const d of och.added) addedHere.add(d);
      }
      if (unread) {
        state.pending = true;
        continue;
      }
      const topo = view.topo[commit]!;
      for (const d of held) {
        const key = `${entry.path}\0${d}`;
        const was = newest.get(key);
        if (!was || topo < was.topo) newest.set(key, { topo, moved: addedHere.has(d) });
      }
    }
    // a file whose last removal of a digest moved it is followed by the move (analyze), not searched as a pin file
    const out = new Set<string>();
    for (const [k, { moved }] of newest) if (!moved) out.add(k.slice(0, k.indexOf('\0')));
    const files = [...out].sort();
    if (!state.pending) seen.last = { key, paths, files };
    return files;
  }

  /**
   * Why `file`, where `digest` was introduced, no longer pins it: the commit
   * that deleted it, when its newest loaded entry deletes it; else the newest
   * loaded commit that took `digest` out of it, when no later one put it back
   * (nothing to say then: the file holds it again, as another image's pin).
   */
  private leftBy(view: HistoryView, file: string, digest: string): Pick<DigestIntroduction, 'fileDeletedBy' | 'takenOutBy'> {
    const facts = (i: number): CommitFacts => {
      const c = view.commits[i]!;
      return { commit: c.sha, subject: c.subject, date: c.date };
    };
    let newest: { commit: number; entry: RawEntry } | undefined;
    for (const e of this.byPath.get(file) ?? []) if (!newest || view.topo[e.commit]! < view.topo[newest.commit]!) newest = e;
    if (newest && isNullBlob(newest.entry.newBlob)) return { fileDeletedBy: facts(newest.commit) };
    const newestIn = (list: readonly { commit: number; file: string }[] | undefined) => {
      let out: number | undefined;
      for (const r of list ?? []) if (r.file === file && (out === undefined || view.topo[r.commit]! < view.topo[out]!)) out = r.commit;
      return out;
    };
    // taken out since: its newest removal there is newer than its newest addition there (else the file holds it again)
    const out = newestIn(this.primary?.removals.get(digest));
    const back = newestIn(this.primary?.byDigest.get(digest));
    return out === undefined || (back !== undefined && view.topo[back]! < view.topo[out]!) ? {} : { takenOutBy: facts(out) };
  }

  /**
   * The pin files that may hold `digest` before one of its additions: those
   * that hold it now (`holders`), those the loaded history adds it to or
   * removes it from (a file that held it then and does not now lost it in a
   * commit after that addition's parent, which the walk has read), and `files`
   * (a move's round searches the files it was moved from).
   */
  private mayHold(digest: string, files: ReadonlySet<string>, holders: ReadonlyMap<string, readonly string[]> | undefined): string[] {
    const out = new Set<string>(holders?.get(digest) ?? []);
    for (const { file } of this.primary?.byDigest.get(digest) ?? []) out.add(file);
    for (const { file } of this.primary?.removals.get(digest) ?? []) out.add(file);
    if (files !== this.primary?.files) for (const f of files) out.add(f);
    return [...out].sort();
  }

  /**
   * Whether one of `files` held `digest` in the first parent of `c`, a
   * non-merge commit adding it: a file `c` changes held it when its change does
   * not add it and its old blob holds it (a blob most likely read already); any
   * other is read as `<parent>:./<file>`. Each answer is kept with the digest
   * changes under `heldKey`; undefined while a blob is unread. A path git's
   * batch cannot be asked for (a newline in it) is taken to have held it: the
   * introduction is then looked for further back (an older build, more
   * unshipped commits), never dated later than it may be.
   */
  private heldAt(c: HistoryCommit, parent: string, digest: string, files: readonly string[], state: { pending: boolean }): boolean | undefined {
    let unread = false;
    for (const file of files) {
      const entry = c.entries.find((e) => e.path === file);
      // the commit put it there: not held before (its change is known: the addition was found from it)
      if (entry && this.change(entry)?.added.has(digest)) continue;
      if (entry && isNullBlob(entry.oldBlob)) continue;
      if (!entry && file.includes('\n')) return true;
      const key = heldKey(parent, file);
      let held = this.known.get(key)?.added;
      if (!held) {
        // `./`: the path from the root, which git's batch (run there) resolves below a subdirectory root too
        held = this.digests(entry ? entry.oldBlob : `${parent}:./${file}`);
        if (!held) {
          unread = true;
          continue;
        }
        this.known.set(key, { added: held, removed: NO_DIGESTS });
      }
      if (held.has(digest)) return true;
    }
    if (unread) state.pending = true;
    return unread ? undefined : false;
  }

  /**
   * Whether a loaded commit in the history of `parent` (itself included) took
   * `digest` out of a pin file, or out of one of `files` (a move's round: the
   * files it was moved from): then such a file held it before, and an addition
   * after that is its return (a rollback by hand, a release stamping an older
   * build again), not its introduction.
   */
  private removedBefore(view: HistoryView, digest: string, parent: string, files: ReadonlySet<string>): boolean {
    if (!view.graph.has(parent)) return false;
    const removals = [...(this.primary?.removals.get(digest) ?? []).map((r) => r.commit)];
    if (files !== this.primary?.files) for (const f of files) removals.push(...(this.addsByFile.get(f)?.removals.get(digest) ?? []));
    if (removals.length === 0) return false;
    const before = view.graph.ancestors(parent);
    return removals.some((commit) => before[commit] === 1);
  }

  /**
   * Why the addition `c` of `digest` introduces nothing: a revert (by its
   * subject), a copy (one of `mayHold` held it in the first parent), a return
   * (`removedBefore`); undefined when it may be the first addition, or while a
   * blob is unread (`state.pending`).
   */
  private lookedPast(view: HistoryView, c: HistoryCommit, parent: string, digest: string, mayHold: readonly string[], files: ReadonlySet<string>, state: { pending: boolean }): 'revert' | 'copy' | 'return' | undefined {
    if (REVERT.test(c.subject)) return 'revert';
    const copy = this.heldAt(c, parent, digest, mayHold, state);
    if (copy === undefined) return undefined;
    if (copy) return 'copy';
    return this.removedBefore(view, digest, parent, files) ? 'return' : undefined;
  }

  /**
   * The newest of `adds` when it is not the introduction `intro`, and what it
   * was (its facts were asked by the window's first analysis, which starts from
   * the newest addition: no blob more is read for it).
   */
  private laterAddition(view: HistoryView, adds: { commit: number; file: string }[], intro: number, digest: string, mayHold: readonly string[], state: { pending: boolean }): LaterAddition | undefined {
    const newest = adds[0];
    if (!newest || newest.commit === intro) return undefined;
    const c = view.commits[newest.commit]!;
    const parent = c.parentShas[0];
    const as = parent === undefined ? undefined : this.lookedPast(view, c, parent, digest, mayHold, this.primary!.files, state);
    const others = adds.filter((a) => a.commit !== intro && a.commit !== newest.commit && view.topo[a.commit]! < view.topo[intro]!).length;
    return { commit: c.sha, subject: c.subject, date: c.date, file: newest.file, as: as ?? 'again', others };
  }

  /**
   * The introduction among `adds` (newest first): the oldest one outside
   * `common` (undefined: the oldest of all, as over the whole history); when
   * that is a revert, a copy (one of `mayHold` held the digest in its first
   * parent already) or a return (`removedBefore`), the addition before it in its
   * parent's history, read for as far as it takes.
   */
  private pickIntro(view: HistoryView, adds: { commit: number; file: string }[], common: Uint8Array | undefined, state: { incomplete: boolean; pending: boolean }, digest: string, mayHold: readonly string[], files: ReadonlySet<string>): { commit: number; file: string } {
    const { graph, topo } = view;
    let pick = adds[0]!;
    for (const a of adds) if (!common?.[a.commit] && (common?.[pick.commit] || topo[a.commit]! > topo[pick.commit]!)) pick = a;
    for (let guard = 0; guard < adds.length; guard++) {
      const c = view.commits[pick.commit]!;
      const parent = c.parentShas[0];
      if (parent === undefined) break;
      // unread: asked again once the batch has answered (pending); none: its first addition
      if (this.lookedPast(view, c, parent, digest, mayHold, files, state) === undefined) break;
      if (!graph.has(parent)) {
        if (!view.ended) state.incomplete = true;
        break;
      }
      const before = graph.ancestors(parent);
      const older = adds.find((a) => before[a.commit] === 1);
      if (!older) {
        // what the revert put back (the copy copied, the return brought back) came in before what is read yet
        if (!view.ended) state.incomplete = true;
        break;
      }
      pick = older;
    }
    const parent = view.commits[pick.commit]!.parentShas[0];
    if (parent !== undefined && !graph.has(parent) && !view.ended) state.incomplete = true;
    return pick;
  }
}
