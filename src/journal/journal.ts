/**
 * All-or-nothing writes of several files, and the recovery of an interrupted one.
 *
 * `writeFilesTogether` journals its plan in `<git dir>/pinwatch/journal.json`
 * (`<root>/.pinwatch/` outside git): (1) the journal, state `prepared`, lists each
 * target with its temp file, backup and the sha256 of the old and new bytes;
 * (2) every temp file is written in full and fsync'ed, every old file hard-linked
 * to its backup; (3) the journal turns `committing`; (4) each temp is renamed over
 * its target; (5) backups and the journal are removed. Every step is fsync'ed.
 *
 * `recoverInterruptedWrites` (run by every command at the start of the scan)
 * finishes what a killed run left: a `prepared` journal is rolled back (no file
 * was replaced yet); a `committing` one is rolled forward when every temp still
 * holds the new bytes, otherwise rolled back from the backups. Stale pinwatch
 * temp files (`.<name>.pinwatch-<pid>-<hex>.tmp|.bak` of a process that is gone)
 * are removed. Each thing done is returned as a note for the command's output.
 */
import { createHash } from 'node:crypto';
import { existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, unlinkSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { PinwatchError } from '../errors.js';
import { runGit } from '../git/run.js';
import { containedPath } from '../util/repo-path.js';
import { readRegularFile, readRegularText } from '../util/safe-read.js';
import { fsyncDir, PINWATCH_TEMP_NAME, replaceableMode, tempPathFor, writeError, writeFileAtomic, writeFsOf, writeTempFile, type AtomicWriteOptions } from '../util/atomic-write.js';
import { displayPath } from '../util/display-path.js';

export interface PlannedWrite {
  /** Repo-relative name, for messages. */
  file: string;
  /** Absolute path (already checked to be inside the repository). */
  path: string;
  data: Uint8Array;
}

interface JournalEntry {
  file: string;
  target: string;
  temp: string;
  backup: string;
  oldHash: string;
  newHash: string;
}

interface Journal {
  version: 1;
  pid: number;
  state: 'prepared' | 'committing';
  entries: JournalEntry[];
}

/** Codes of the notes below; a command reports them as warnings. */
export const RECOVERY_CODES: ReadonlySet<string> = new Set([
  'interrupted-write-rolled-forward',
  'interrupted-write-rolled-back',
  'interrupted-write-conflict',
  'interrupted-write-in-progress',
  'interrupted-write-journal-unreadable',
  'interrupted-write-recovery-failed',
  'stale-temp-removed',
]);

/** What a recovery did, one note per file; reported by the command (scan problems, repin problems). */
export interface RecoveryNote {
  file: string;
  code: string;
  reason: string;
}

const JOURNAL = 'journal.json';
/** Test hook: milliseconds to pause between two renames, so a kill lands between them. */
const PAUSE_ENV = 'PINWATCH_TEST_RENAME_PAUSE_MS';

const sha256 = (b: Uint8Array) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** Hash of a regular file (read through the safe reader: a FIFO or device a journal names is never read); undefined otherwise. */
function hashOf(path: string): string | undefined {
  const read = readRegularFile(path, { followSymlinks: true, maxBytes: Number.MAX_SAFE_INTEGER });
  return 'bytes' in read ? sha256(read.bytes) : undefined;
}

/**
 * Why a journal entry cannot be one pinwatch wrote, or undefined: its target
 * must lie inside the repository and its temp and backup be pinwatch temp files
 * beside it. Outside git the journal lives in the tree (`.pinwatch/`), where a
 * hostile checkout could plant one naming any path to rename or remove.
 */
function entryProblem(root: string, e: JournalEntry): string | undefined {
  if (![e.file, e.target, e.temp, e.backup].every((s) => typeof s === 'string')) return 'an entry lacks file, target, temp or backup';
  try {
    containedPath(root, e.target, 'the target');
  } catch (err) {
    return `${JSON.stringify(e.target)} is not inside the repository (${(err as Error).message})`;
  }
  for (const p of [e.temp, e.backup]) {
    if (dirname(p) !== dirname(e.target) || !PINWATCH_TEMP_NAME.test(basename(p))) return `${JSON.stringify(p)} is not a pinwatch temp file beside ${JSON.stringify(e.target)}`;
  }
  return undefined;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* already gone */
  }
}

const journalDirs = new Map<string, Promise<string>>();

/**
 * `<git dir>/pinwatch` (per worktree: `git rev-parse --absolute-git-dir`, once per root), else `<root>/.pinwatch`.
 * `gitDir`: that rev-parse's answer when the caller asked it already, from `root`, in a rev-parse of its own
 * (stale's kept-answer check does: one process fewer); undefined from it asks again.
 */
export function journalDir(root: string, gitDir?: Promise<string | undefined>): Promise<string> {
  let dir = journalDirs.get(root);
  if (!dir) {
    const ask = () =>
      runGit(root, ['rev-parse', '--absolute-git-dir']).then(
        (r) => (r.code === 0 && r.stdout.trim() ? join(r.stdout.trim(), 'pinwatch') : join(root, '.pinwatch')),
        () => join(root, '.pinwatch'),
      );
    dir = gitDir ? gitDir.then((d) => (d ? join(d, 'pinwatch') : ask()), ask) : ask();
    journalDirs.set(root, dir);
  }
  return dir;
}

function sleepMs(ms: number): void {
  if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function writeJournal(dir: string, journal: Journal): void {
  mkdirSync(dir, { recursive: true });
  writeFileAtomic(join(dir, JOURNAL), `${JSON.stringify(journal, null, 2)}\n`);
}

function clearJournal(dir: string, outsideGit: boolean): void {
  removeQuietly(join(dir, JOURNAL));
  try {
    fsyncDir(dir);
    if (outsideGit) rmdirSync(dir);
  } catch {
    /* not empty or gone: nothing to clear */
  }
}

/** Keep the old bytes for a rollback: a hard link (free), or a copy where the file system has none. */
function backUp(e: JournalEntry, mode: number | undefined): void {
  try {
    linkSync(e.target, e.backup);
  } catch {
    writeTempFile(e.target, readFileSync(e.target), mode, undefined, e.backup);
  }
}

/**
 * Replace every file of `writes` or none: see the module comment. Throws a
 * PinwatchError naming the file and the OS error; then every old file is intact.
 */
export async function writeFilesTogether(root: string, writes: readonly PlannedWrite[], options: AtomicWriteOptions = {}): Promise<void> {
  if (writes.length === 0) return;
  if (writes.length === 1) return writeFileAtomic(writes[0]!.path, writes[0]!.data, options);
  const fs = writeFsOf(options);
  const dir = await journalDir(root);
  const outsideGit = dir === join(root, '.pinwatch');
  if (existsSync(join(dir, JOURNAL))) {
    // every command recovers a dead run's journal first, so this one belongs to a live run
    throw new PinwatchError('write-in-progress', `another pinwatch run is writing files of this repository (journal ${join(dir, JOURNAL)}); nothing was written, run again when it is done`);
  }
  const modes = writes.map((w) => replaceableMode(w.path, fs));
  const journal: Journal = {
    version: 1,
    pid: process.pid,
    state: 'prepared',
    entries: writes.map((w) => ({
      file: w.file,
      target: w.path,
      temp: tempPathFor(w.path, 'tmp'),
      backup: tempPathFor(w.path, 'bak'),
      oldHash: hashOf(w.path) ?? 'absent',
      newHash: sha256(w.data),
    })),
  };
  const cleanup = () => journal.entries.forEach((e) => (removeQuietly(e.temp), removeQuietly(e.backup)));
  let current = '';
  try {
    current = join(dir, JOURNAL);
    writeJournal(dir, journal);
    journal.entries.forEach((e, i) => {
      current = e.target;
      writeTempFile(e.target, writes[i]!.data, modes[i], fs, e.temp);
      if (modes[i] !== undefined) backUp(e, modes[i]);
    });
    for (const d of new Set(journal.entries.map((e) => dirname(e.target)))) fsyncDir(d, fs);
    current = join(dir, JOURNAL);
    writeJournal(dir, { ...journal, state: 'committing' });
  } catch (e) {
    cleanup();
    clearJournal(dir, outsideGit);
    throw writeError(current, e);
  }
  const pause = Number(process.env[PAUSE_ENV] ?? 0);
  const renamed: JournalEntry[] = [];
  try {
    journal.entries.forEach((e, i) => {
      if (i > 0) sleepMs(pause);
      current = e.target;
      fs.renameSync(e.temp, e.target);
      renamed.push(e);
    });
    for (const d of new Set(journal.entries.map((e) => dirname(e.target)))) fsyncDir(d, fs);
  } catch (e) {
    // put back what was replaced, so the failure leaves every old file
    for (const r of renamed) {
      try {
        renameSync(r.backup, r.target);
      } catch {
        /* the journal stays: the next run rolls back from it */
        throw writeError(current, e);
      }
    }
    cleanup();
    clearJournal(dir, outsideGit);
    throw writeError(current, e);
  }
  journal.entries.forEach((e) => removeQuietly(e.backup));
  clearJournal(dir, outsideGit);
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function recoverJournal(root: string, journal: Journal): RecoveryNote[] {
  const files = journal.entries.map((e) => e.file);
  const what = `an interrupted write of ${files.length} files (${files.join(', ')}; pinwatch pid ${journal.pid})`;
  const notes: RecoveryNote[] = [];
  const note = (code: string, reason: string, only?: JournalEntry) =>
    (only ? [only] : journal.entries).forEach((e) => notes.push({ file: e.file, code, reason }));
  const states = journal.entries.map((e) => {
    const h = hashOf(e.target) ?? 'absent';
    return h === e.newHash ? 'new' : h === e.oldHash ? 'old' : 'other';
  });
  const others = journal.entries.filter((_, i) => states[i] === 'other');
  others.forEach((e) => note('interrupted-write-conflict', `${e.file} changed since ${what}; it was left as it is, check it by hand`, e));
  const pending = journal.entries.filter((_, i) => states[i] === 'old');
  const canForward = journal.state === 'committing' && pending.every((e) => hashOf(e.temp) === e.newHash);
  if (canForward) {
    for (const e of pending) renameSync(e.temp, e.target);
    note('interrupted-write-rolled-forward', `${what} was completed (rolled forward): every file now holds the new content`);
  } else {
    const undone = journal.entries.filter((_, i) => states[i] === 'new');
    const lost = undone.filter((e) => e.oldHash !== 'absent' && hashOf(e.backup) !== e.oldHash);
    for (const e of undone) {
      if (e.oldHash === 'absent') unlinkSync(e.target);
      else if (!lost.includes(e)) renameSync(e.backup, e.target);
    }
    if (lost.length) lost.forEach((e) => note('interrupted-write-conflict', `${what} could not be rolled back for ${e.file}: its backup is missing; it holds the new content`, e));
    note('interrupted-write-rolled-back', `${what} was rolled back: every file holds its old content${undone.length ? '' : ' (none had been replaced yet)'}`);
  }
  for (const d of new Set(journal.entries.map((e) => dirname(e.target)))) fsyncDir(d);
  journal.entries.forEach((e) => (removeQuietly(e.temp), removeQuietly(e.backup)));
  return notes.filter((n, i) => notes.findIndex((m) => m.file === n.file && m.code === n.code) === i);
}

const listUntrackedTemps = (root: string) => runGit(root, ['ls-files', '-z', '--others', '--exclude-standard', '--', ':(glob)**/.*.pinwatch-*']);

/** Paths (relative to root) of pinwatch temp files: git ls-files (untracked, not ignored; `listed` when it was started already), or a walk outside git. */
async function listTempFiles(root: string, outsideGit: boolean, listed?: ReturnType<typeof listUntrackedTemps>): Promise<string[]> {
  if (!outsideGit) {
    const r = await (listed ?? listUntrackedTemps(root)).catch(() => undefined);
    if (r?.code === 0) return r.stdout.split('\0').filter((f) => f && PINWATCH_TEMP_NAME.test(f.slice(f.lastIndexOf('/') + 1)));
  }
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name === '.git' || e.name === 'node_modules') continue;
      if (e.isDirectory()) walk(join(dir, e.name), `${rel}${e.name}/`);
      else if (PINWATCH_TEMP_NAME.test(e.name)) out.push(`${rel}${e.name}`);
    }
  };
  walk(root, '');
  return out;
}

/**
 * Finish or undo an interrupted `writeFilesTogether` on the repository at root,
 * and remove stale pinwatch temp files. Returns what was done (empty: nothing to do).
 */
export async function recoverInterruptedWrites(root: string): Promise<RecoveryNote[]> {
  const recovery = await startRecovery(root);
  return [...recovery.journal, ...(await recovery.staleTemps())];
}

/** An interrupted write's recovery under way: the journal's notes, and the look for a killed run's temp files. */
export interface Recovery {
  journal: RecoveryNote[];
  /** Remove the stale temp files the look finds, and say so (the look runs once, however often this is asked). */
  staleTemps(): Promise<RecoveryNote[]>;
  /**
   * Remove the stale temp files among `found` (paths relative to the root: what
   * the caller's own listing of the tree shows, tempsInListings) instead of
   * looking, and say so; then staleTemps() answers the same.
   */
  staleTempsAmong(found: readonly string[]): Promise<RecoveryNote[]>;
}

/**
 * The same in two steps, so a caller can overlap the second with its own work:
 * the journal is recovered before this resolves (it may rename files; `gitDir` as
 * journalDir takes it); the search for stale temp files (one `git ls-files
 * --others`, about 0.1 s on a large tree) has started, unless `look` is `later`
 * (the caller may list the tree itself: staleTempsAmong), and `staleTemps()`
 * removes what it found and says so.
 */
export async function startRecovery(root: string, gitDir?: Promise<string | undefined>, look: 'now' | 'later' = 'now'): Promise<Recovery> {
  // a caller that asked git for the git dir knows git is there: the look for temp files starts at once, beside that
  // rev-parse, and what it lists is removed only after the journal below is settled, and only what is still there
  const listed = gitDir && look === 'now' ? listUntrackedTemps(root) : undefined;
  listed?.catch(() => undefined);
  const dir = await journalDir(root, gitDir);
  const outsideGit = dir === join(root, '.pinwatch');
  const notes: RecoveryNote[] = [];
  const path = join(dir, JOURNAL);
  if (existsSync(path)) {
    let journal: Journal | undefined;
    try {
      const read = readRegularText(path);
      if ('refused' in read) throw new Error(read.refused.reason);
      journal = JSON.parse(read.text) as Journal;
      if (journal.version !== 1 || !Array.isArray(journal.entries)) throw new Error(`unknown journal version ${String(journal.version)}`);
    } catch (e) {
      notes.push({ file: displayPath(root, path), code: 'interrupted-write-journal-unreadable', reason: `the write journal ${path} cannot be read (${(e as Error).message}); it was left in place, remove it after checking the files by hand` });
      journal = undefined;
    }
    if (journal && alive(journal.pid)) {
      notes.push({ file: displayPath(root, path), code: 'interrupted-write-in-progress', reason: `pinwatch pid ${journal.pid} is writing ${journal.entries.map((e) => e.file).join(', ')}; its files may change while this runs` });
    } else if (journal && journal.entries.some((e) => entryProblem(root, e) !== undefined)) {
      const bad = journal.entries.map((e) => entryProblem(root, e)).find((p) => p !== undefined);
      notes.push({ file: displayPath(root, path), code: 'interrupted-write-journal-unreadable', reason: `the write journal ${path} is not one pinwatch wrote (${bad}); nothing was renamed or removed, it was left in place: remove it after checking the files by hand` });
    } else if (journal) {
      try {
        notes.push(...recoverJournal(root, journal));
        clearJournal(dir, outsideGit);
      } catch (e) {
        notes.push({ file: displayPath(root, path), code: 'interrupted-write-recovery-failed', reason: `an interrupted write (${journal.entries.map((x) => x.file).join(', ')}) could not be recovered: ${(e as Error).message}; the journal ${path} was kept, the next run tries again` });
      }
    }
  }
  // the journal's own temp file, when a run was killed while writing it
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const m = PINWATCH_TEMP_NAME.exec(name);
    if (m && !alive(Number(m[2]))) removeQuietly(join(dir, name));
  }
  const remove = async (found: readonly string[]): Promise<RecoveryNote[]> => {
    const removed: RecoveryNote[] = [];
    for (const rel of found) {
      const m = PINWATCH_TEMP_NAME.exec(rel.slice(rel.lastIndexOf('/') + 1));
      // gone since it was listed: the journal's recovery above took it (its notes say so), or its writer renamed it
      if (!m || alive(Number(m[2])) || !lstatSync(join(root, rel), { throwIfNoEntry: false })) continue;
      removeQuietly(join(root, rel));
      removed.push({ file: rel, code: 'stale-temp-removed', reason: `removed ${rel}, a temp file left by an interrupted pinwatch write (pid ${m[2]}); the file it was for was not changed by it` });
    }
    return removed;
  };
  // started now (beside the caller's work), or when first asked for
  let found = look === 'now' ? listTempFiles(root, outsideGit, listed) : undefined;
  let temps: Promise<RecoveryNote[]> | undefined;
  return {
    journal: notes,
    staleTemps: () => (temps ??= (found ??= listTempFiles(root, outsideGit, listed)).then(remove)),
    staleTempsAmong: (among) => (temps ??= remove(among)),
  };
}

/**
 * The temp files a killed pinwatch write left (PINWATCH_TEMP_NAME), among
 * directory listings: each a directory's absolute path under `root` and its
 * entries as tracked-fs keeps them (`name/type`); their paths relative to
 * root. A name that is not UTF-8 (kept as `\0` and base64) is none.
 */
export function tempsInListings(root: string, listings: Iterable<readonly [string, readonly string[]]>): string[] {
  const out = new Set<string>();
  for (const [dir, list] of listings) {
    for (const entry of list) {
      // a cheap test first: a check lists thousands of directories, and almost never a temp file
      if (!entry.includes('.pinwatch-') || !entry.endsWith('/f')) continue;
      const name = entry.slice(0, -2);
      const rel = relative(root, dir);
      if (!PINWATCH_TEMP_NAME.test(name) || rel.startsWith('..') || isAbsolute(rel)) continue;
      out.add(rel === '' ? name : `${rel.split(sep).join('/')}/${name}`);
    }
  }
  return [...out].sort();
}
