/**
 * The one history reader: a streamed `git log --raw -z --no-renames --relative
 * --no-abbrev` pass, newest first (git's default date order, which streams; a
 * `--topo-order` walk would wait for the whole history), giving per commit its
 * parents, author date, committer time, subject and raw entries (path, old blob,
 * new blob). From it come the commit graph (same nodes and order as a `git log`
 * from the same tips), the paths each commit changes (merges list none: no diff
 * without -m, as `readChangedPaths`) and, through one long-lived `cat-file
 * --batch` (`BlobBatch`), the pin files' contents before and after each change.
 * The caller reads as far as it needs (`grow`) and `stop`s the walk: cost
 * follows the range read, not the age of the repository.
 *
 * Framing (see log-parse.ts): every record starts with a per-run nonce, the
 * header fields are NUL-terminated and checked, and each raw entry is a fixed
 * `:<mode> <mode> <sha> <sha> <status>` NUL path NUL, so no subject or path byte
 * can start, end or forge a record or an entry.
 */
import type { ChildProcess, ChildProcessWithoutNullStreams } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { PinwatchError } from '../errors.js';
import { digestsInBytes } from '../reference/digest-text.js';
import { CommitGraph, type CommitNode } from './graph.js';
import { checkParents, checkSha, malformed, newNonce, nonceRecords, nulFields } from './log-parse.js';
import { spawnGit } from './run.js';

/** One `--raw` line: a path the commit changes against its (first) parent, with both blob ids. */
export interface RawEntry {
  path: string;
  /** Blob before the change; all zeros when the path was added. */
  oldBlob: string;
  /** Blob after the change; all zeros when the path was deleted. */
  newBlob: string;
  /** git's status letter (A, D, M, T). */
  status: string;
}

export interface HistoryCommit {
  sha: string;
  parentShas: string[];
  /** Author date, ISO 8601 with offset (`%aI`). */
  date: string;
  /** Committer time, Unix seconds (`%ct`): the walk's order. */
  commitTime: number;
  subject: string;
  /**
   * Its tree id (`%T`), from the raw and header passes: what a kept record is checked against besides the
   * header fields (a replace ref can give a commit id another tree while its parents, dates and subject stay).
   */
  tree?: string;
  /** Paths changed against the parent (none for a merge), --relative to the root. */
  entries: RawEntry[];
}

export const RAW_FORMAT = '%H%x00%T%x00%P%x00%aI%x00%ct%x00%s%x00';
/** One raw entry's metadata and the NUL ending it, matched where the entry starts (sticky: no slice of the record is made to test it). */
const RAW_META = /:(\d{6}) (\d{6}) ([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{40}|[0-9a-f]{64}) ([A-Z])\0/y;
const NULL_IDS = new Set(['0'.repeat(40), '0'.repeat(64)]);
export const isNullBlob = (id: string) => NULL_IDS.has(id);

/** One record of `git log --raw -z --format=<nonce>RAW_FORMAT` (the text after its nonce). */
export function parseRawRecord(record: string): HistoryCommit {
  const header = nulFields(record, 6);
  const fields = header.fields;
  let at = header.at;
  const [sha, tree, parents, date, ct, subject] = fields as [string, string, string, string, string, string];
  if (!/^-?\d+$/.test(ct)) throw malformed('committer time', ct);
  const commit: HistoryCommit = { sha: checkSha(sha), parentShas: checkParents(parents), date, commitTime: Number(ct), subject, tree: checkSha(tree, 'tree id'), entries: [] };
  // -z ends the header with one more NUL; a commit with changes then has a newline and its entries
  if (record.charCodeAt(at) === 0) at++;
  if (at === record.length) return commit;
  if (record.charCodeAt(at) !== 10) throw malformed('raw entries', record.slice(at));
  // the entries are read in place, by offsets into the record (a 5,666-commit history is ~5 MB of them)
  at++;
  while (at < record.length) {
    RAW_META.lastIndex = at;
    const m = RAW_META.exec(record);
    if (!m) {
      const metaEnd = record.indexOf('\0', at);
      throw malformed('raw entry', metaEnd < 0 ? record.slice(at) : record.slice(at, metaEnd));
    }
    const pathStart = RAW_META.lastIndex;
    const pathEnd = record.indexOf('\0', pathStart);
    if (pathEnd < 0 || pathEnd === pathStart) throw malformed('raw entry path', record.slice(pathStart));
    commit.entries.push({ path: record.slice(pathStart, pathEnd), oldBlob: m[3]!, newBlob: m[4]!, status: m[5]! });
    at = pathEnd + 1;
  }
  return commit;
}

/** A whole `git log --raw -z --format=<nonce>RAW_FORMAT` output. */
export function parseRawLog(stdout: string, nonce: string): HistoryCommit[] {
  return nonceRecords(stdout, nonce).map(parseRawRecord);
}

/** One commit of the walk alone: its id and parents (all a join of kept records checks, history-join.ts). */
export interface WalkEntry {
  sha: string;
  parentShas: string[];
}

const WALK_FORMAT = '%H%x00%P%x00';

/** The arguments of the walk alone: the same commits in the same order as the raw pass, no tree diffed, no message formatted. */
export const walkLogArgs = (nonce: string) => ['log', '--no-color', '--no-show-signature', `--format=${nonce}${WALK_FORMAT}`];

/** One record of `git log --format=<nonce>WALK_FORMAT` (the text after its nonce; git ends it with a newline). */
export function parseWalkRecord(record: string): WalkEntry {
  const end = record.indexOf('\0');
  const parentsEnd = end < 0 ? -1 : record.indexOf('\0', end + 1);
  if (parentsEnd < 0) throw malformed('walk record', record);
  const rest = record.slice(parentsEnd + 1);
  if (rest !== '' && rest !== '\n') throw malformed('walk record end', rest);
  return { sha: checkSha(record.slice(0, end)), parentShas: checkParents(record.slice(end + 1, parentsEnd)) };
}

/**
 * What the window reads commits from: the raw pass (HistoryStream), or the
 * same commits joined from kept records (history-join.ts). `commits` holds them
 * in git's order, newest first; `grow` reads on, `stop` ends the walk.
 */
export interface CommitStream<C extends WalkEntry = HistoryCommit> {
  readonly commits: C[];
  readonly ended: boolean;
  readonly stopped: boolean;
  grow(count: number): Promise<void>;
  all(): Promise<C[]>;
  stop(): void;
  /** Git processes it started. */
  processes(): number;
  /** Whether git failed while it read (what was read is then not kept). */
  readonly failed: boolean;
}

/** The arguments of the raw pass (revisions and `--not` go after them). */
export const rawLogArgs = (nonce: string) => [
  'log', '--raw', '-z', '--no-renames', '--relative', '--no-abbrev', '--no-color', '--no-ext-diff', '--no-textconv', '--no-show-signature', `--format=${nonce}${RAW_FORMAT}`,
];

/**
 * A streamed raw pass. git writes into an unlinked temporary file rather than a
 * pipe, so it runs at full speed on another core even while this thread is busy
 * (a pipe would stall git at 64 KiB until the event loop next turns); commits are
 * parsed from the file as they are asked for (`grow`), and `stop` ends the walk
 * early (what was read stays).
 */
export class HistoryStream<C extends WalkEntry = HistoryCommit> implements CommitStream<C> {
  readonly commits: C[] = [];
  readonly index = new Map<string, number>();
  /** True once everything git printed is parsed (or the walk was stopped). */
  ended = false;
  /** True when the walk ended because `stop` was called, not because history did. */
  stopped = false;
  private failure: PinwatchError | undefined;
  private child: ChildProcess | undefined;
  private fd: number | undefined;
  private position = 0;
  private exit: number | null | undefined;
  private readonly err: Buffer[] = [];
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private first = true;
  private readonly waiters: (() => void)[] = [];

  private constructor(
    private readonly nonce: string,
    private readonly parse: (record: string) => C,
    /** The command as its failure names it. */
    private readonly what = 'git log --raw',
  ) {}

  /** Start `git log --raw` from `revs` (excluding what `not` reaches) in `repo`. */
  static start(repo: string, revs: string[], not: string[] = []): HistoryStream {
    const nonce = newNonce();
    return HistoryStream.spawn(new HistoryStream(nonce, parseRawRecord), repo, rawLogArgs(nonce), revs, not);
  }

  /** The walk from `revs` alone (`walkLogArgs`): each commit's id and parents, in the raw pass's order. */
  static walk(repo: string, revs: string[]): HistoryStream<WalkEntry> {
    const nonce = newNonce();
    return HistoryStream.spawn(new HistoryStream(nonce, parseWalkRecord), repo, walkLogArgs(nonce), revs, []);
  }

  /**
   * Any other `git log` read as git writes it: `args` (from `log`, the format led by `nonce`), from `revs`,
   * limited to `paths`; each record parsed by `parse` (the tag pass's patches: digest-history.ts streamPatchLog).
   */
  static records<T extends WalkEntry>(repo: string, nonce: string, args: string[], revs: string[], paths: string[], parse: (record: string) => T, what: string, env?: Record<string, string>): HistoryStream<T> {
    return HistoryStream.spawn(new HistoryStream(nonce, parse, what), repo, args, revs, [], paths, env);
  }

  private static spawn<T extends WalkEntry>(s: HistoryStream<T>, repo: string, args: string[], revs: string[], not: string[], paths: string[] = [], env?: Record<string, string>): HistoryStream<T> {
    const dir = mkdtempSync(join(process.getBuiltinModule('node:os').tmpdir(), 'pinwatch-log-'));
    const file = join(dir, 'raw');
    let out: number | undefined;
    try {
      out = openSync(file, 'w');
      s.fd = openSync(file, 'r');
    } finally {
      // both ends stay open; nothing is left behind (unlink and rmdir: a recursive rm costs ~9 ms on first use)
      try {
        if (out !== undefined) unlinkSync(file);
        rmdirSync(dir);
      } catch {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    const child = spawnGit(repo, [...args, '--stdin', ...(paths.length > 0 ? ['--', ...paths] : [])], env ? { env } : {}, out);
    closeSync(out);
    s.child = child;
    child.stderr!.on('data', (b: Buffer) => s.err.push(b));
    child.on('error', (e) => s.fail(new PinwatchError('git-unavailable', `could not run git: ${e.message}; expected a git executable on PATH`, {}, { cause: e })));
    child.on('close', (code) => {
      s.exit = code;
      s.wake();
    });
    child.stdin!.on('error', () => undefined);
    child.stdin!.end([...revs, ...not.map((r) => `^${r}`)].map((r) => `${r}\n`).join(''));
    return s;
  }

  /** Parse what git has written, until `count` commits are read or the file is exhausted. */
  private pump(count: number): void {
    if (this.fd === undefined) return;
    const buf = Buffer.allocUnsafe(1 << 18);
    while (this.commits.length < count && !this.ended) {
      const n = readSync(this.fd, buf, 0, buf.length, this.position);
      if (n === 0) return;
      this.position += n;
      this.pending += this.decoder.write(buf.subarray(0, n));
      this.take(false);
    }
  }

  private take(final: boolean): void {
    const { nonce } = this;
    let parts = this.pending.split(nonce);
    if (this.first && this.pending.length >= nonce.length) {
      if (parts[0] !== '') return this.fail(malformed('text before the first record', parts[0]!));
      this.first = false;
    }
    if (final) {
      if (this.pending === '') return;
      if (parts[0] !== '') return this.fail(malformed('text before the first record', parts[0]!));
      parts = parts.slice(1);
      this.pending = '';
    } else {
      if (parts.length < 3) return; // '' + a record still being written
      this.pending = nonce + parts[parts.length - 1]!;
      parts = parts.slice(1, -1);
    }
    try {
      for (const r of parts) this.add(this.parse(r));
    } catch (e) {
      this.fail(e as PinwatchError);
    }
  }

  private add(c: C): void {
    if (this.index.has(c.sha)) return;
    this.index.set(c.sha, this.commits.length);
    this.commits.push(c);
  }

  private fail(e: PinwatchError): void {
    if (this.ended) return;
    this.failure = e;
    this.finish();
  }

  private finish(): void {
    this.ended = true;
    this.child?.kill();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.wake();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Wait until at least `count` commits are read or the walk has ended; throws what git failed with. */
  async grow(count: number): Promise<void> {
    while (!this.ended && this.commits.length < count) {
      const exited = this.exit !== undefined;
      this.pump(count);
      if (this.commits.length >= count || this.ended) break;
      if (exited) {
        // git is done and everything it wrote is read
        this.pending += this.decoder.end();
        if (this.exit !== 0) {
          this.fail(new PinwatchError('git-failed', `${this.what} failed (exit ${this.exit}): ${Buffer.concat(this.err).toString('utf8').trim().split('\n')[0] ?? ''}`));
          break;
        }
        this.take(true);
        this.finish();
        break;
      }
      // git is still writing: look again shortly (or as soon as it exits)
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 2);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    if (this.failure) throw this.failure;
  }

  /** Read to the end. */
  async all(): Promise<C[]> {
    await this.grow(Infinity);
    return this.commits;
  }

  /** End the walk here: git is stopped, the commits read so far stay. */
  stop(): void {
    if (this.ended) return;
    this.stopped = true;
    this.finish();
  }

  processes(): number {
    return 1;
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }
}

/**
 * The commit graph of `commits` (in the order given; parents outside them, like
 * a shallow boundary's, are left out of `parents` but kept in `parentShas`).
 */
export function graphOf(commits: readonly HistoryCommit[]): CommitGraph {
  const index = new Map(commits.map((c, i) => [c.sha, i]));
  const nodes: CommitNode[] = commits.map((c) => ({
    sha: c.sha,
    parentShas: c.parentShas,
    date: c.date,
    subject: c.subject,
    parents: c.parentShas.map((p) => index.get(p)).filter((p): p is number => p !== undefined),
  }));
  return new CommitGraph(nodes);
}

/** Changed paths per commit (merges: none), as `readChangedPaths` answers. */
export function changedPathsOf(commits: readonly HistoryCommit[]): Map<string, string[]> {
  return new Map(commits.map((c) => [c.sha, c.entries.map((e) => e.path)]));
}

/**
 * Positions of `nodes` in git's `--topo-order` (newest first), as
 * `sort_in_topological_order` computes it from the date-ordered list: tips in
 * list order, then a LIFO of commits whose children are all shown (so after a
 * merge its last parent's line comes first).
 */
export function topoPositions(graph: CommitGraph): Int32Array {
  const n = graph.nodes.length;
  const indegree = new Int32Array(n).fill(1);
  for (const node of graph.nodes) for (const p of node.parents) indegree[p]!++;
  const stack: number[] = [];
  for (let i = n - 1; i >= 0; i--) if (indegree[i] === 1) stack.push(i);
  const pos = new Int32Array(n).fill(-1);
  let k = 0;
  while (stack.length > 0) {
    const i = stack.pop()!;
    for (const p of graph.nodes[i]!.parents) {
      if (indegree[p] === 0) continue;
      if (indegree[p] === 2) stack.push(p);
      indegree[p]!--;
    }
    indegree[i] = 0;
    pos[i] = k++;
  }
  return pos;
}

/**
 * A long-lived `git cat-file --batch`: blob ids are written as they become
 * wanted and answered in order, framed by the byte counts of each header (no
 * content byte can shift it). One process for the whole run. A blob is asked
 * for its text (`read`) or only for the digests it holds (`digests`, read from
 * its bytes: the pin files' every version is never decoded).
 */
export class BlobBatch {
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly cache = new Map<string, Promise<string | undefined>>();
  private readonly digestCache = new Map<string, Promise<ReadonlySet<string> | undefined>>();
  private readonly queue: { id: string; resolve: (bytes: Buffer | undefined) => void }[] = [];
  private buf: Buffer = Buffer.alloc(0);
  /** Output not yet joined into `buf`, its byte count (with `buf`'s), and how many bytes the next answer needs. */
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  private needed = 0;
  private failure: Error | undefined;
  private closed = false;

  constructor(private readonly repo: string) {}

  /** The text of blob `id` (undefined: missing, or not a blob). */
  read(id: string): Promise<string | undefined> {
    return BlobBatch.once(this.cache, id, () => this.ask(id).then((bytes) => bytes?.toString('utf8')));
  }

  /** The digests blob `id` holds (digestsInText of its text, read from its bytes); undefined: missing, or not a blob. */
  digests(id: string): Promise<ReadonlySet<string> | undefined> {
    return BlobBatch.once(this.digestCache, id, () => this.ask(id).then((bytes) => (bytes ? digestsInBytes(bytes) : undefined)));
  }

  private static once<T>(cache: Map<string, Promise<T>>, id: string, make: () => Promise<T>): Promise<T> {
    let p = cache.get(id);
    if (!p) cache.set(id, (p = make()));
    return p;
  }

  /** The bytes of blob `id` (undefined: missing, or not a blob), asked of the process. */
  private ask(id: string): Promise<Buffer | undefined> {
    // asked after close (a prefetch still running when a command gave up): nobody reads the answer, and a
    // process started now would never be closed, keeping the command from exiting
    if (this.closed) return Promise.resolve(undefined);
    return this.failure ? Promise.reject(this.failure) : new Promise((resolve) => {
      this.queue.push({ id, resolve });
      this.process().stdin.write(`${id}\n`);
    });
  }

  /** What ended its process while blobs were still asked of it (undefined: nothing yet); reads asked since answer undefined. Ask before `close`. */
  get error(): Error | undefined {
    return this.failure;
  }

  /** Whether its process has been started (for process counts). */
  get running(): boolean {
    return this.child !== undefined;
  }

  /** Close the process once every asked blob is answered; a read asked later starts nothing and answers undefined. */
  close(): void {
    this.closed = true;
    this.child?.stdin.end();
  }

  private process(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawnGit(this.repo, ['cat-file', '--batch']);
    this.child = child;
    child.stdin.on('error', () => undefined);
    child.stdout.on('data', (b: Buffer) => {
      // a large blob arrives in many chunks: joined once it is whole, not once per chunk
      this.chunks.push(b);
      this.buffered += b.length;
      if (this.buffered >= this.needed) this.drain();
    });
    const fail = (e: Error) => {
      this.failure = e;
      for (const q of this.queue.splice(0)) q.resolve(undefined);
    };
    child.on('error', (e) => fail(new PinwatchError('git-unavailable', `could not run git: ${e.message}; expected a git executable on PATH`, {}, { cause: e })));
    child.on('close', () => fail(new PinwatchError('git-failed', 'git cat-file --batch ended before answering')));
    return child;
  }

  private drain(): void {
    if (this.chunks.length > 0) {
      this.buf = this.buf.length === 0 && this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat([this.buf, ...this.chunks]);
      this.chunks.length = 0;
    }
    this.needed = 0;
    while (this.queue.length > 0) {
      const eol = this.buf.indexOf(0x0a);
      if (eol < 0) break;
      const header = this.buf.subarray(0, eol).toString('utf8');
      const m = /^([0-9a-f]{40}|[0-9a-f]{64}) ([a-z]+) (\d+)$/.exec(header);
      if (!m) {
        // "<id> missing": no content follows
        this.buf = this.buf.subarray(eol + 1);
        this.queue.shift()!.resolve(undefined);
        continue;
      }
      const size = Number(m[3]);
      if (this.buf.length < eol + 1 + size + 1) {
        this.needed = eol + 1 + size + 1;
        break;
      }
      const bytes = this.buf.subarray(eol + 1, eol + 1 + size);
      this.buf = this.buf.subarray(eol + 1 + size + 1);
      this.queue.shift()!.resolve(m[2] === 'blob' ? bytes : undefined);
    }
    this.buffered = this.buf.length;
  }
}

/** The digests of blobs read through a `BlobBatch`: what is answered, and what is wanted next (see digest-window.ts). */
export class BlobDigests {
  private readonly answered = new Map<string, ReadonlySet<string> | undefined>();
  private readonly inflight = new Map<string, Promise<void>>();

  constructor(readonly batch: BlobBatch) {}

  /** The digests blob `id` holds, once answered (undefined: not yet, or not a blob). */
  digests(id: string): ReadonlySet<string> | undefined {
    return this.answered.get(id);
  }

  has(id: string): boolean {
    return this.answered.has(id);
  }

  want(id: string): void {
    if (this.answered.has(id) || this.inflight.has(id)) return;
    this.inflight.set(id, this.batch.digests(id).then((d) => {
      this.answered.set(id, d);
      this.inflight.delete(id);
    }));
  }

  /** Wait until every wanted blob is answered. */
  async settled(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all(this.inflight.values());
  }
}
