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
 * stale on a large repository).
 */
import type { Dirent, Stats } from 'node:fs';
import { readdirSync, statSync } from '../util/tracked-fs.js';
import { sep } from 'node:path';

interface Memo {
  root: string;
  runs: number;
  stats: Map<string, Promise<Stats | undefined>>;
  dirs: Map<string, Promise<Dirent[]>>;
  texts: Map<string, unknown>;
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
      return Promise.resolve(statSync(abs));
    } catch {
      return Promise.resolve(undefined);
    }
  };
  if (!memo) return ask();
  let known = memo.stats.get(abs);
  if (!known) memo.stats.set(abs, (known = ask()));
  return known;
}

/** `readdir` with file types; rejects as readdir does. */
export function readdirOnce(abs: string): Promise<Dirent[]> {
  const memo = memoFor(abs);
  if (!memo) return listNow(abs);
  let known = memo.dirs.get(abs);
  if (!known) {
    known = listNow(abs);
    known.catch(() => undefined); // each caller awaits (and handles) it
    memo.dirs.set(abs, known);
  }
  return known;
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
  if (!memo.texts.has(abs)) memo.texts.set(abs, read(abs));
  return memo.texts.get(abs) as T;
}
