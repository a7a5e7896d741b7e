/**
 * What the derivation asks the file system (a path's kind, a directory's
 * entries, a source file's text), asked once per derivation run: the images of
 * one repository share Dockerfiles, go.mod files and Go packages, so without it
 * the same go.mod is stat'ed dozens of times. A run is `withSourceMemo(root, …)`
 * (images/images.ts derives every image of a scan in one); outside a run every
 * question goes to the file system as before. Answers are per absolute path and
 * live only while a run of that root is under way. The questions are asked
 * synchronously (answered as settled promises): a stat of a cached inode costs
 * microseconds, while a thread-pool round trip per question left the thread
 * idle between the awaits of one image's derivation (about 100 ms of a cold
 * stale on a large repository). While the tree-state snapshot records one
 * image's derivation (src/snapshot/), an answer the memo gives again notes, in
 * that recording, the paths the answer was first made from (util/tracked-fs.ts
 * captureReads / noteReads): what an image got from the memo is what it depends on.
 */
import type { Dirent, Stats } from 'node:fs';
import { captureReads, noteReads, readdirSync, statSync, type TouchedPath } from '../util/tracked-fs.js';
import { sep } from 'node:path';

/** An answer and the paths it was made from (while a recording was under way: util/tracked-fs.ts captureReads). */
interface Answer<T> {
  value: T;
  reads: TouchedPath[] | undefined;
}

interface Memo {
  root: string;
  runs: number;
  stats: Map<string, Answer<Promise<Stats | undefined>>>;
  dirs: Map<string, Answer<Promise<Dirent[]>>>;
  texts: Map<string, Answer<unknown>>;
}

/**
 * The memo's answer to `key`, asked once; a later answer notes again, in the
 * recording under way, the paths the first one read (a snapshot part records
 * one image's derivation: what it got from the memo is what it depends on).
 */
function once<T>(map: Map<string, Answer<T>>, key: string, ask: () => T): T {
  const known = map.get(key);
  if (known) {
    noteReads(known.reads);
    return known.value;
  }
  const made = captureReads(ask);
  map.set(key, made);
  return made.value;
}

const active: Memo[] = [];

/** Run `fn` with the answers about files under `root` shared (nested and overlapping runs of one root share one memo). */
export async function withSourceMemo<T>(root: string, fn: () => Promise<T>): Promise<T> {
  let memo = active.find((m) => m.root === root);
  if (!memo) active.push((memo = { root, runs: 0, stats: new Map(), dirs: new Map(), texts: new Map() }));
  memo.runs++;
  try {
    return await fn();
  } finally {
    if (--memo.runs === 0) active.splice(active.indexOf(memo), 1);
  }
}

function memoFor(abs: string): Memo | undefined {
  if (active.length === 0) return undefined;
  return active.find((m) => abs === m.root || abs.startsWith(m.root.endsWith('/') || m.root.endsWith(sep) ? m.root : `${m.root}/`));
}

/** `stat` (following symlinks), undefined when it fails. */
export function statOnce(abs: string): Promise<Stats | undefined> {
  const memo = memoFor(abs);
  const ask = (): Promise<Stats | undefined> => {
    try {
      return Promise.resolve(statSync(abs, { throwIfNoEntry: false })); // a missing path, often asked, throws nothing
    } catch {
      return Promise.resolve(undefined);
    }
  };
  if (!memo) return ask();
  return once(memo.stats, abs, ask);
}

/** `readdir` with file types; rejects as readdir does. */
export function readdirOnce(abs: string): Promise<Dirent[]> {
  const memo = memoFor(abs);
  if (!memo) return listNow(abs);
  return once(memo.dirs, abs, () => {
    const listed = listNow(abs);
    listed.catch(() => undefined); // each caller awaits (and handles) it
    return listed;
  });
}

function listNow(abs: string): Promise<Dirent[]> {
  try {
    return Promise.resolve(readdirSync(abs, { withFileTypes: true }));
  } catch (e) {
    return Promise.reject(e as Error);
  }
}

/** `read(abs)` once per run (a source file's text, or why it has none). */
export function readOnce<T>(abs: string, read: (abs: string) => T): T {
  const memo = memoFor(abs);
  if (!memo) return read(abs);
  return once(memo.texts as Map<string, Answer<T>>, abs, () => read(abs));
}
