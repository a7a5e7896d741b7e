/**
 * The one file-system layer the derivation reads through (the scan walk and
 * collectors, the recipe readers, the Makefile reader, the build-input
 * derivation): node:fs's functions under the same names, which, while a
 * recording is under way (`recordReads`), note every path they touch — its
 * lstat (device, inode, mode, size, mtime and ctime in ns; the target's stat
 * for a symlink; "missing" for a path that is not there), a directory's
 * listing, the realpath answers, and the content hash of a file read while its
 * mtime or ctime is too recent to trust (the racy-git rule), and the content
 * hash of every file read. `checkRecord` tells whether a record still holds,
 * as git checks its index: with lstat calls only while the stats are as
 * recorded and were not racy; where a stat differs (an edit, or a fresh
 * checkout of the same content: CI) it falls back to the answer itself — a
 * file read is hashed again, a listed directory listed again, a symlink's
 * target read again — and hands back a refreshed record, so the next check of
 * the same tree is lstat-only again. It never throws.
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { BigIntStats, Dirent, PathLike } from 'node:fs';
import { dirname, normalize, sep } from 'node:path';

/** A file changed this close to the recording's start (or later) may have changed within the same timestamp tick: not trusted by stat. */
const RACY_NS = 2_000_000_000n;

/** One path the derivation touched. */
export interface TouchedPath {
  /** The path; base64 of its bytes when `bytes` is set (a name that is not UTF-8). */
  p: string;
  bytes?: true;
  /** lstat: `dev:ino:mode:size:mtimeNs:ctimeNs`, or `-` when missing (or unreadable). */
  l: string;
  /** For a symlink: the stat of what it leads to (`-` when nothing), and its target as written. */
  t?: string;
  link?: string;
  /** The listing, when it was read as a directory: `name/type` entries sorted (listingOf). */
  list?: string[];
  /** True when every listing of it was the scan walk's (a new entry no reader looks for may be told harmless). */
  walk?: boolean;
  /** realpath answer, when asked. */
  real?: string;
  /** sha256 of the content, for a file that was read. */
  h?: string;
  /**
   * For a file read only to answer a question about its content (contentQuery): each
   * question and its answer, `kind\0args\0answer` (checked by asking again, not by hash).
   */
  q?: string[];
  /** Its mtime or ctime was too recent to trust its stat (only its answer counts). */
  racy?: true;
}

export interface ReadRecord {
  /** When the recording started (ns since the epoch, as a decimal string). */
  startNs: string;
  paths: TouchedPath[];
  /** Set when something made the record unusable (a path form it cannot keep). */
  unusable?: string;
}

class Recorder {
  readonly deps = new Map<string, TouchedPath>();
  unusable: string | undefined;
  /** The keys touched while each capture under way (captureReads) runs. */
  readonly taps: Set<string>[] = [];
  /** Every key touched, in order, while a log is kept (startLog): the walk attributes them to directories by position. */
  log: string[] | undefined;

  constructor(readonly start: bigint = BigInt(Date.now()) * 1_000_000n) {}

  touch(path: PathLike): TouchedPath | undefined {
    const key = keyOf(path);
    if (key === undefined) {
      this.unusable ??= 'a path given as a URL or file descriptor';
      return undefined;
    }
    for (const tap of this.taps) tap.add(key.k);
    this.log?.push(key.k);
    let dep = this.deps.get(key.k);
    if (dep) return dep;
    dep = statDep({ p: key.p, ...(key.bytes ? { bytes: true as const } : {}), l: '-' }, path, this.start);
    this.deps.set(key.k, dep);
    return dep;
  }

  listed(path: PathLike, entries: readonly (string | Buffer | Dirent | Dirent<Buffer>)[], walk: boolean): void {
    const dep = this.touch(path);
    if (!dep) return;
    const list = listingOf(path, entries);
    if (dep.list === undefined) {
      dep.list = list;
      if (walk) dep.walk = true;
    } else if (!walk) delete dep.walk;
  }

  /** Reads under way whose content is kept as a question's answer instead (contentQuery). */
  quiet = 0;

  /** A file's content was read: kept as a hash (what a check falls back to when the stat differs). */
  read(path: PathLike, bytes?: Uint8Array): void {
    const dep = this.touch(path);
    if (!dep || dep.h !== undefined || this.quiet > 0) return;
    dep.h = hashOf(bytes ?? readQuiet(path));
  }

  real(path: PathLike, answer: string | undefined): void {
    const dep = this.touch(path);
    if (dep && dep.real === undefined) dep.real = answer ?? '-';
  }

  /**
   * A path another recording (or a capture) noted, noted here too as it was
   * then: an answer reused from a memo depends on what that answer was made
   * from. A path already noted here with another stat, listing, content or
   * realpath changed during the run: the record is not kept.
   */
  merge(dep: TouchedPath): void {
    const k = keyOfTouched(dep);
    const have = this.deps.get(k);
    if (!have) {
      this.deps.set(k, { ...dep });
      return;
    }
    const differs = (a: string[] | string | undefined, b: string[] | string | undefined) => a !== undefined && b !== undefined && (Array.isArray(a) && Array.isArray(b) ? a.join('\n') !== b.join('\n') : a !== b);
    if (have.l !== dep.l || have.t !== dep.t || have.link !== dep.link || differs(have.list, dep.list) || differs(have.h, dep.h) || differs(have.real, dep.real)) {
      this.unusable ??= 'a file changed while it was read';
      return;
    }
    if (have.list === undefined && dep.list !== undefined) {
      have.list = dep.list;
      if (dep.walk) have.walk = true;
    } else if (dep.list !== undefined && !dep.walk) delete have.walk;
    if (have.h === undefined && dep.h !== undefined) have.h = dep.h;
    for (const q of dep.q ?? []) if (!(have.q ??= []).includes(q)) have.q.push(q);
    if (have.real === undefined && dep.real !== undefined) have.real = dep.real;
    if (dep.racy) have.racy = true;
  }
}

let active: Recorder | undefined;

const isRacy = (st: BigIntStats, start: bigint) => st.mtimeNs >= start - RACY_NS || st.ctimeNs >= start - RACY_NS;

/**
 * `dep` with the path's stat now (lstat; for a symlink also its target's stat and text), racy against `start`.
 * `asked`: the path's lstat asked just before by the caller (undefined when none was: it is asked here).
 */
function statDep(dep: TouchedPath, path: PathLike, start: bigint, asked?: { st: BigIntStats | undefined }): TouchedPath {
  const out: TouchedPath = { ...dep, l: '-' };
  delete out.racy;
  delete out.t;
  delete out.link;
  const st = asked ? asked.st : lstatQuiet(path);
  if (!st) return out;
  out.l = tupleOf(st);
  if (isRacy(st, start)) out.racy = true;
  if (st.isSymbolicLink()) {
    const target = statQuiet(path);
    out.t = target ? tupleOf(target) : '-';
    out.link = linkQuiet(path);
    if (target && isRacy(target, start)) out.racy = true;
  }
  return out;
}

function linkQuiet(path: PathLike): string {
  try {
    return fs.readlinkSync(path, 'buffer').toString('base64');
  } catch {
    return '-';
  }
}

function keyOf(path: PathLike): { k: string; p: string; bytes?: true } | undefined {
  if (typeof path === 'string') return { k: path, p: path };
  if (Buffer.isBuffer(path)) {
    const p = path.toString('base64');
    return { k: `\0${p}`, p, bytes: true };
  }
  return undefined;
}

/** The key a record, its check and a recording name a path by (keyOf of the path it was touched by). */
export const keyOfTouched = (dep: Pick<TouchedPath, 'p' | 'bytes'>): string => (dep.bytes ? `\0${dep.p}` : dep.p);

const pathOf = (dep: Pick<TouchedPath, 'p' | 'bytes'>): PathLike => (dep.bytes ? Buffer.from(dep.p, 'base64') : dep.p);

function tupleOf(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.mode}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const isDirTuple = (tuple: string) => tuple !== '-' && (Number(tuple.split(':')[2]) & S_IFMT) === S_IFDIR;

function lstatQuiet(path: PathLike): BigIntStats | undefined {
  try {
    return fs.lstatSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function statQuiet(path: PathLike): BigIntStats | undefined {
  try {
    return fs.statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function readQuiet(path: PathLike): Uint8Array | undefined {
  try {
    return fs.readFileSync(path);
  } catch {
    return undefined;
  }
}

function hashOf(bytes: Uint8Array | undefined): string {
  return bytes === undefined ? '-' : createHash('sha256').update(bytes).digest('hex');
}

function typeLetter(d: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): string {
  return d.isFile() ? 'f' : d.isDirectory() ? 'd' : d.isSymbolicLink() ? 'l' : 'o';
}

/**
 * A listing as sorted `name/type` entries (type f, d, l or o): a name as text
 * when it is UTF-8, else `\0` and the base64 of its bytes.
 */
function listingOf(path: PathLike, entries: readonly (string | Buffer | Dirent | Dirent<Buffer>)[]): string[] {
  const first = entries[0];
  // a listing of names only: its types are read here, so the record is as strict as a typed one
  const typed = first === undefined || (typeof first !== 'string' && !Buffer.isBuffer(first)) ? (entries as (Dirent | Dirent<Buffer>)[]) : listQuiet(path);
  if (typed === undefined) return ['?'];
  return typed.map((d) => `${nameText(d.name)}/${typeLetter(d)}`).sort();
}

function nameText(name: string | Buffer): string {
  if (typeof name === 'string') return name;
  const text = utf8Name(name);
  return text ?? `\0${name.toString('base64')}`;
}

function listQuiet(path: PathLike): Dirent<Buffer>[] | undefined {
  try {
    return fs.readdirSync(path, { withFileTypes: true, encoding: 'buffer' });
  } catch {
    return undefined;
  }
}

/**
 * Run `fn` with every read through this layer recorded; the record comes back
 * beside its value. `startNs` (ns since the epoch): the recording's start for
 * the racy rule, when several recordings of one derivation share one (their
 * paths may be merged into one another: captureReads).
 */
export async function recordReads<T>(fn: () => Promise<T>, startNs?: bigint): Promise<{ value: T; record: ReadRecord }> {
  const outer = active;
  const rec = new Recorder(startNs);
  active = rec;
  try {
    const value = await fn();
    return { value, record: { startNs: rec.start.toString(), paths: [...rec.deps.values()], ...(rec.unusable ? { unusable: rec.unusable } : {}) } };
  } finally {
    active = outer;
  }
}

/**
 * Read `path` for one question about its content (`ask`: the lines a `sed`
 * line filter edits), noting in the recording under way the question and its
 * answer (`answerOf`) instead of the content's hash: a check with an evaluator
 * for `kind` (CheckOptions.queries) asks again where the stat differs, so an
 * edit elsewhere in the file (a digest bumped on a line that still matches)
 * changes nothing. Its stats are noted as by any read.
 */
export function contentQuery<T>(path: PathLike, kind: string, args: string, ask: () => T, answerOf: (value: T) => string): T {
  const rec = active;
  if (!rec) return ask();
  rec.quiet++;
  let value: T;
  try {
    value = ask();
  } finally {
    rec.quiet--;
  }
  const dep = rec.touch(path);
  if (dep) {
    const q = `${kind}\0${args}\0${answerOf(value)}`;
    if (!(dep.q ??= []).includes(q)) dep.q.push(q);
  }
  return value;
}

/**
 * Run the synchronous `fn` (a memo's question to the file system) and hand
 * back, beside its value, the paths it touched as the recording under way noted
 * them (undefined when none is): a later answer from the memo notes them again
 * (`noteReads`) in whatever recording is under way then, so a recording of one
 * image's derivation holds what the memo's answer was made from even when
 * another image asked first.
 */
export function captureReads<T>(fn: () => T): { value: T; reads: TouchedPath[] | undefined } {
  const rec = active;
  if (!rec) return { value: fn(), reads: undefined };
  const tap = new Set<string>();
  rec.taps.push(tap);
  let value: T;
  try {
    value = fn();
  } finally {
    rec.taps.splice(rec.taps.indexOf(tap), 1);
  }
  const reads: TouchedPath[] = [];
  for (const k of tap) {
    const dep = rec.deps.get(k);
    if (dep) reads.push({ ...dep });
  }
  return { value, reads };
}

/**
 * captureReads for spans that do not nest as closures (the scan walk's
 * directories, each paused while a subdirectory is walked): every path key
 * touched from startLog until stopLog is appended to the array, in order, so a
 * span is a range of it (undefined: nothing records).
 */
export function startLog(): string[] | undefined {
  if (!active) return undefined;
  return (active.log = []);
}

export function stopLog(log: string[] | undefined): void {
  if (log && active?.log === log) active.log = undefined;
}

/**
 * Note in the recording under way the paths a capture saw (captureReads), as
 * they were then. `undefined` (the answer was made while nothing recorded):
 * the recording cannot tell what that answer depends on, so it is unusable.
 */
export function noteReads(reads: readonly TouchedPath[] | undefined): void {
  if (!active) return;
  if (reads === undefined) {
    active.unusable ??= 'an answer made before the recording started was reused';
    return;
  }
  for (const dep of reads) active.merge(dep);
}

/** recordReads for a synchronous `fn` (one scanned file's read and collect, inside the scan's own recording). */
export function recordReadsSync<T>(fn: () => T, startNs?: bigint): { value: T; record: ReadRecord } {
  const outer = active;
  const rec = new Recorder(startNs);
  active = rec;
  try {
    const value = fn();
    return { value, record: { startNs: rec.start.toString(), paths: [...rec.deps.values()], ...(rec.unusable ? { unusable: rec.unusable } : {}) } };
  } finally {
    active = outer;
  }
}

/** True while a recording is under way (callers with their own memo of reads still read through this layer). */
export function recording(): boolean {
  return active !== undefined;
}

/** Note a file read by other means (util/safe-read.ts reads by descriptor). */
export function noteRead(path: PathLike, bytes?: Uint8Array): void {
  active?.read(path, bytes);
}

/** Note a path whose stat was asked by other means. */
export function noteTouch(path: PathLike): void {
  active?.touch(path);
}

/**
 * Whether `entry`, a new or removed entry of a directory only the scan walk
 * listed, changes nothing the derivation found (the caller knows the readers).
 */
export type HarmlessEntry = (dir: string, name: string, type: string) => boolean;

export interface RecordCheck {
  holds: boolean;
  /** Why not (the first path that changed, and how). */
  reason?: string;
  /** Paths checked; directories listed again, files hashed again (where a stat differed or was racy). */
  stats: { paths: number; listed: number; hashed: number };
  /**
   * When it holds but some answers had to be checked by content: the record with today's stats (next time
   * lstat-only); only when a file was hashed again or more than REFRESH_LISTINGS directories were listed again.
   */
  refreshed?: ReadRecord;
  /** With CheckOptions `all`, when it does not hold: the key (keyOfTouched) of every path that changed… */
  failed?: Set<string>;
  /** …and every path that held, with today's stats where they were asked again (what a derivation reusing part of it notes: noteReads). */
  held?: ReadRecord;
  /** With CheckOptions `listings`, when it holds: each directory listed (a UTF-8 path) and its entries now, as listingOf gives them. */
  listings?: [string, string[]][];
}

/** lstat answers shared by the checks of several records in one run (each path asked once): path key → stat tuple or `-`. */
export type LstatMemo = Map<string, string>;

const chainsOf = new WeakMap<LstatMemo, Map<string, boolean>>();

/** Whether each directory (and every one above it, to the root) is a directory, as the lstats of `lstats` tell: asked once per directory for all records checked with them. */
function dirChains(lstats: LstatMemo | undefined): Map<string, boolean> {
  if (!lstats) return new Map();
  let chains = chainsOf.get(lstats);
  if (!chains) chainsOf.set(lstats, (chains = new Map()));
  return chains;
}

export interface CheckOptions {
  /** The lstat answers of this run's other checks (each path asked once). */
  lstats?: LstatMemo;
  /**
   * The record's readers use a path they only stat for its type (exists,
   * isFile, isDirectory), never its size or times: a file only stat'd then
   * holds while its type does (an edit of a Dockerfile the build model only
   * checks for is no change of the model). Without it, its size counts too.
   */
  typeOnlyStats?: boolean;
  /** Evaluators of content questions (contentQuery) by kind: the answer `args` gets from the file now. Without one, a question whose file changed fails the check. */
  queries?: Readonly<Record<string, (path: string, args: string) => string>>;
  /** Check every path, not only up to the first that changed: a record that does not hold then says which (RecordCheck `failed`, `held`). */
  all?: boolean;
  /** Give each directory's listing as it is now (RecordCheck `listings`): the one kept when its stat held, the one read again otherwise. */
  listings?: boolean;
}

const tupleOfQuiet = (st: BigIntStats | undefined) => (st ? tupleOf(st) : '-');

/** A time in ns (decimal) as Node's plain Stats gives it in ms: `sec * 1e3 + nsec / 1e6` in doubles, as lib/internal/fs/utils.js computes it. */
function msOfNs(ns: string): number {
  // a non-negative decimal: the seconds and nanoseconds are its digits before and after the last nine (as the BigInt quotient and remainder)
  if (/^\d+$/.test(ns)) return Number(ns.slice(0, -9) || '0') * 1e3 + Number(ns.slice(-9)) / 1e6;
  const t = BigInt(ns);
  return Number(t / 1_000_000_000n) * 1e3 + Number(t % 1_000_000_000n) / 1e6;
}

/**
 * Whether the path's lstat now is `recorded`, a tuple that was not racy,
 * asked without building a BigIntStats (about a third of the cost; most of a
 * warm check is this question): the device, inode, mode and size exactly (as
 * safe integers), mtime and ctime to the double milliseconds a plain stat
 * reports. That suffices: `recorded` was not racy, so its ctime lies more than
 * RACY_NS before the recording started, and any change since (an edit, a
 * rename over it, a chmod) sets the ctime to a time after that start, far more
 * than a double's sub-microsecond rounding away. False means "not known equal":
 * the caller asks the exact BigInt lstat (so a Node whose plain times were
 * computed otherwise is only slower, never wrong).
 */
function plainStatIs(path: PathLike, recorded: string): boolean {
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return false;
  }
  if (!st || recorded === '-') return false;
  const [dev, ino, mode, size, mtimeNs, ctimeNs] = recorded.split(':');
  if (!Number.isSafeInteger(st.dev) || !Number.isSafeInteger(st.ino) || !Number.isSafeInteger(st.size)) return false;
  return String(st.ino) === ino && String(st.size) === size && String(st.mode) === mode && String(st.dev) === dev && st.mtimeMs === msOfNs(mtimeNs!) && st.ctimeMs === msOfNs(ctimeNs!);
}

/**
 * How many plain lstats one check lets miss before, with at least four in five
 * of them missed (a fresh checkout: every stat is new), it asks only the exact
 * lstat (a miss costs that second lstat). It never decides an answer: only
 * which lstat is asked first.
 */
const PLAIN_MISSES = 32;

/** The type bits and size of a stat tuple: what a stat answer tells its callers about a file. */
function answerPart(tuple: string): string {
  if (tuple === '-') return '-';
  const [, , mode, size] = tuple.split(':');
  return `${Number(mode) & S_IFMT}:${size}`;
}

const typePart = (tuple: string) => (tuple === '-' ? '-' : String(Number(tuple.split(':')[2]) & S_IFMT));

/**
 * Does the record still hold: would every path touched give the same answer?
 * A path whose lstat is as recorded (and was not racy) holds as it is. Else its
 * answer is compared: the same type; a file read, the same content hash; a
 * file only stat'd, the same size; a directory listed, the same listing (or one
 * that differs only by entries `harmless` accepts, when only the walk listed
 * it); a symlink, the same target text and target. realpath answers are asked
 * again, except for a path that resolved to itself with every directory
 * between it and `root` (a real path) a directory now: their types, checked
 * here by lstat, decide it (a directory made a symlink is no directory).
 * `options.lstats` shares the lstat answers of several records checked at one
 * point of a run; `options.typeOnlyStats` (CheckOptions) compares a file only
 * stat'd by its type alone.
 */
export function checkRecord(record: ReadRecord, harmless: HarmlessEntry, root?: string, options: CheckOptions = {}): RecordCheck {
  const { lstats, typeOnlyStats, queries } = options;
  const stats = { paths: 0, listed: 0, hashed: 0 };
  if (record.unusable) return { holds: false, reason: `the record cannot be checked (${record.unusable})`, stats };
  /** The exact lstats tupleNow asked in this check, by key: a path whose stat differs is not asked a third time by statDep. */
  const asked = new Map<string, { st: BigIntStats | undefined }>();
  /** Plain lstats that settled a path and that did not: once most do not (a fresh checkout, every stat new), only the exact lstat is asked. */
  const plain = { hits: 0, misses: 0 };
  /** lstat through the run's memo (`options.lstats`), when there is one. */
  const tupleNow = (key: string, path: PathLike, notRacy?: string): string => {
    const seen = lstats?.get(key);
    if (seen !== undefined) return seen;
    let now: string;
    const tryPlain = notRacy !== undefined && (plain.misses < PLAIN_MISSES || plain.misses <= 4 * plain.hits);
    const held = tryPlain && plainStatIs(path, notRacy);
    if (tryPlain) plain[held ? 'hits' : 'misses']++;
    if (held) now = notRacy;
    else {
      const st = lstatQuiet(path);
      asked.set(key, { st });
      now = tupleOfQuiet(st);
    }
    lstats?.set(key, now);
    return now;
  };
  /**
   * A path that resolved to itself, below the (real) root, spelled without `.`
   * or `..`, whose type is as recorded (checked before this is asked), with
   * every directory above it a directory now (lstat: not a symlink): it still
   * resolves to itself. Those directories' lstats are shared with the run's
   * other checks.
   */
  const chains = dirChains(lstats);
  /** Every directory from `d` up to the root is a directory now (each answer kept with the run's lstats). */
  const chainIsDirs = (d: string): boolean => {
    if (d === root) return true;
    if (d.length <= root!.length) return false;
    let ok = chains.get(d);
    if (ok === undefined) chains.set(d, (ok = isDirTuple(tupleNow(d, d)) && chainIsDirs(dirname(d))));
    return ok;
  };
  const resolvesByTypes = (dep: TouchedPath): boolean => {
    if (root === undefined || dep.bytes || dep.real !== dep.p || !dep.p.startsWith(`${root}${sep}`) || normalize(dep.p) !== dep.p) return false;
    return chainIsDirs(dirname(dep.p));
  };
  const realNow = (dep: TouchedPath, path: PathLike): string | undefined => {
    if (dep.real === undefined || resolvesByTypes(dep)) return undefined;
    let real = '-';
    try {
      real = fs.realpathSync.native(path, 'utf8');
    } catch {
      real = '-';
    }
    return real === dep.real ? undefined : real;
  };
  const start = BigInt(Date.now()) * 1_000_000n;
  const listings: [string, string[]][] | undefined = options.listings ? [] : undefined;
  let slow = false;
  const paths: TouchedPath[] = [];
  const fail = (reason: string) => ({ failed: reason });
  /** One path checked: its entry with today's stats where they were asked again, or why it no longer holds. */
  const one = (dep: TouchedPath): TouchedPath | { failed: string } => {
    const path = pathOf(dep);
    const key = keyOfTouched(dep);
    const now = tupleNow(key, path, dep.racy ? undefined : dep.l);
    const shown = dep.bytes ? Buffer.from(dep.p, 'base64').toString('utf8') : dep.p;
    // the common case first: the stat as recorded, and not racy
    if (now === dep.l && !dep.racy) {
      const moved = realNow(dep, path);
      if (moved !== undefined) return fail(`${shown} now resolves to ${moved}`);
      if (listings && dep.list !== undefined && !dep.bytes) listings.push([dep.p, dep.list]);
      return dep;
    }
    if (now === '-' || dep.l === '-') {
      if (now !== dep.l) return fail(`${shown} ${now === '-' ? 'is gone' : 'appeared'}`);
      return dep;
    }
    if (typePart(now) !== typePart(dep.l)) return fail(`${shown} changed (its type)`);
    // a directory only stat'd: its type is the whole answer (its times change with every entry, e.g. .git's)
    const fast = isDirTuple(dep.l) && dep.list === undefined;
    let fresh = dep;
    if (!fast) {
      slow = true;
      fresh = statDep(dep, path, start, asked.get(key));
      if (isDirTuple(dep.l)) {
        if (dep.list !== undefined) {
          stats.listed++;
          const listed = listingNow(path, dep, shown, harmless);
          if ('changed' in listed) return fail(listed.changed);
          fresh.list = listed.list;
          if (listings && !dep.bytes) listings.push([dep.p, listed.list]);
        }
      } else if (dep.t !== undefined) {
        if (fresh.link !== dep.link) return fail(`the symlink ${shown} was retargeted`);
        if (answerPart(fresh.t ?? '-') !== answerPart(dep.t)) return fail(`what the symlink ${shown} leads to changed`);
      } else if (dep.h === undefined && dep.q === undefined && !typeOnlyStats && answerPart(now) !== answerPart(dep.l)) return fail(`${shown} changed (${describeChange(dep.l, now)})`);
      if (dep.h !== undefined) {
        stats.hashed++;
        if (answerPart(fresh.t ?? now) !== answerPart(dep.t ?? dep.l) || hashOf(readQuiet(path)) !== dep.h) return fail(`${shown} changed (${describeChange(dep.t ?? dep.l, fresh.t ?? now)})`);
      } else if (dep.q !== undefined) {
        stats.hashed++;
        for (const q of dep.q) {
          const [kind = '', args = '', answer] = q.split('\0');
          const evaluate = queries?.[kind];
          if (!evaluate || dep.bytes) return fail(`${shown} changed (${describeChange(dep.t ?? dep.l, fresh.t ?? now)})`);
          if (evaluate(dep.p, args) !== answer) return fail(`${shown} changed (what its ${kind} question reads of it)`);
        }
      }
    }
    const moved = realNow(dep, path);
    if (moved !== undefined) return fail(`${shown} now resolves to ${moved}`);
    return fresh;
  };
  let failed: { key: string; reason: string }[] | undefined;
  for (const dep of record.paths) {
    stats.paths++;
    const checked = one(dep);
    if (!('failed' in checked)) {
      paths.push(checked);
      continue;
    }
    if (!options.all) return { holds: false, reason: checked.failed, stats };
    (failed ??= []).push({ key: keyOfTouched(dep), reason: checked.failed });
  }
  if (failed) return { holds: false, reason: failed[0]!.reason, stats, failed: new Set(failed.map((f) => f.key)), held: { startNs: start.toString(), paths } };
  // a refreshed record is written again whole (the scan part is ~1 MB): worth it when files were hashed (a fresh
  // checkout, racy stats) or many directories listed, not for the one listing a new harmless file changed
  const worth = slow && (stats.hashed > 0 || stats.listed > REFRESH_LISTINGS);
  return { holds: true, stats, ...(worth ? { refreshed: { startNs: start.toString(), paths } } : {}), ...(listings ? { listings } : {}) };
}

/** Directories listed again (and holding) below which a record is not rewritten with today's stats: listing them again next time costs less. */
export const REFRESH_LISTINGS = 8;

function describeChange(was: string, now: string): string {
  const [, ino0, mode0, size0, mtime0] = was.split(':');
  const [, ino1, mode1, size1, mtime1] = now.split(':');
  if (mode0 !== mode1) return 'its type or mode';
  if (ino0 !== ino1) return 'replaced';
  if (size0 !== size1) return `size ${size0} → ${size1}`;
  if (mtime0 !== mtime1) return 'modified';
  return 'its inode was changed';
}

/**
 * A directory's listing as listingOf gives it, read as UTF-8 names: a third
 * cheaper than as bytes (no Buffer and strict decode per name; a fresh clone's
 * check lists every directory again). Read as bytes when a name may not be
 * UTF-8: reading as UTF-8 makes each invalid byte a U+FFFD, so a name without
 * one was valid UTF-8 and reads as the strict decoder reads it.
 */
function listedNow(path: PathLike): string[] | undefined {
  let named: Dirent[] | Dirent<Buffer>[] | undefined;
  try {
    named = fs.readdirSync(path, { withFileTypes: true });
  } catch {
    return undefined;
  }
  if (named.some((d) => d.name.includes('\uFFFD'))) named = listQuiet(path);
  return named && listingOf(path, named);
}

/** The directory's listing now, or why it no longer holds. */
function listingNow(path: PathLike, dep: TouchedPath, shown: string, harmless: HarmlessEntry): { list: string[] } | { changed: string } {
  const now = listedNow(path);
  if (!now) return { changed: `${shown} cannot be listed` };
  const list = dep.list!;
  if (now.length === list.length && now.every((e, i) => e === list[i])) return { list: now };
  const was = new Set(dep.list);
  const is = new Set(now);
  const diff = [...now.filter((e) => !was.has(e)), ...dep.list!.filter((e) => !is.has(e))];
  for (const e of diff) {
    const slash = e.lastIndexOf('/');
    const raw = e.slice(0, slash);
    const type = e.slice(slash + 1);
    const name = raw.startsWith('\0') ? undefined : raw;
    if (!dep.walk || name === undefined || !harmless(shown, name, type)) return { changed: `${shown}: ${is.has(e) ? 'new' : 'removed'} entry ${JSON.stringify(name ?? raw.slice(1))}` };
  }
  return { list: now };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
function utf8Name(b: Buffer): string | undefined {
  try {
    return strictUtf8.decode(b);
  } catch {
    return undefined;
  }
}

/**
 * True when no path of the record changed since it was first touched (every
 * lstat exactly as recorded): checked before a record is kept, so a file
 * changed while the derivation ran is never vouched for.
 */
export function unchangedSince(record: ReadRecord): boolean {
  for (const dep of record.paths) {
    // a plain stat first, as checkRecord asks (plainStatIs: exact but for time rounding far below a timestamp tick)
    if (!plainStatIs(pathOf(dep), dep.l)) {
      const st = lstatQuiet(pathOf(dep));
      if ((st ? tupleOf(st) : '-') !== dep.l) return false;
    }
    if (dep.t !== undefined) {
      const target = statQuiet(pathOf(dep));
      if ((target ? tupleOf(target) : '-') !== dep.t) return false;
    }
  }
  return true;
}

// ---- node:fs under the same names, recording while a recording is under way ----

/** readdirSync noting the listing; `walk`: the scan walk's (its listings may take an entry no reader looks for, see HarmlessEntry). */
function listing(walk: boolean): typeof fs.readdirSync {
  return ((path: PathLike, options?: unknown) => {
    active?.touch(path);
    const out = fs.readdirSync(path, options as never) as (string | Buffer | Dirent)[];
    active?.listed(path, out, walk);
    return out;
  }) as typeof fs.readdirSync;
}

export const readdirSync = listing(false);
/** readdirSync for the scan walk. */
export const readdirWalkSync = listing(true);

export const readFileSync = ((path: PathLike | number, options?: unknown) => {
  if (typeof path !== 'number') active?.touch(path);
  const out = fs.readFileSync(path, options as never) as string | Buffer;
  if (typeof path !== 'number') active?.read(path, Buffer.isBuffer(out) ? out : undefined);
  return out;
}) as typeof fs.readFileSync;

/** `fn` with the path it is given noted first (a stat-like question: the record keeps its lstat). */
function touching<F extends (path: PathLike, ...rest: never[]) => unknown>(fn: F): F {
  return ((path: PathLike, ...rest: never[]) => {
    active?.touch(path);
    return fn(path, ...rest);
  }) as F;
}

export const statSync = touching(fs.statSync);
export const lstatSync = touching(fs.lstatSync);
export const existsSync = touching(fs.existsSync);
export const readlinkSync = touching(fs.readlinkSync);

export const realpathSync = ((path: PathLike, options?: unknown) => {
  if (!active) return fs.realpathSync(path, options as never);
  let out: string | Buffer;
  try {
    out = fs.realpathSync(path, options as never) as string | Buffer;
  } catch (e) {
    active.real(path, undefined);
    throw e;
  }
  active.real(path, Buffer.isBuffer(out) ? out.toString('utf8') : out);
  return out;
}) as typeof fs.realpathSync;

/** fs/promises `stat`. */
export const stat = ((path: PathLike, options?: unknown) => {
  active?.touch(path);
  return fsp.stat(path, options as never);
}) as typeof fsp.stat;

/** fs/promises `readdir`. */
export const readdir = (async (path: PathLike, options?: unknown) => {
  const rec = active;
  rec?.touch(path);
  const out = (await fsp.readdir(path, options as never)) as (string | Buffer | Dirent)[];
  rec?.listed(path, out, false);
  return out;
}) as typeof fsp.readdir;

export type { Dirent, PathLike, Stats } from 'node:fs';
