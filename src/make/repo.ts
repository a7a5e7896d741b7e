/**
 * A pragmatic Make reader: read a Makefile (with its includes) into a database
 * of variables and rules, and expand a target's recipe with `$@` bound. What it
 * cannot know becomes a marker; what it cannot read becomes a problem.
 */
import { existsSync, realpathSync, statSync } from '../util/tracked-fs.js';
import * as path from 'node:path';
import { emptyDatabase, type MakeDatabase } from './database.js';
import { resolvesInside } from '../util/repo-path.js';
import { readRegularText } from '../util/safe-read.js';
import { MakeReader, type ReaderSnapshot } from './reader.js';
import { cacheFor, sha256Hex, type Cache } from '../cache/index.js';
import type { MakeFileSystem } from './types.js';

export const diskFileSystem: MakeFileSystem = {
  /** Only a regular file, size-capped (util/safe-read.ts): a FIFO or /dev/zero is unreadable, not a hang. */
  readFile(p) {
    const read = readRegularText(p, { followSymlinks: true });
    return 'text' in read ? read.text : undefined;
  },
  exists(p) {
    try {
      return existsSync(p) && statSync(p).isFile();
    } catch {
      return false;
    }
  },
};

/**
 * diskFileSystem limited to the repository: a Makefile or include that resolves
 * outside `root` (through a symlink) is unreadable and does not exist.
 */
export function repoFileSystem(root: string): MakeFileSystem {
  let rootReal: string;
  try {
    rootReal = realpathSync(root);
  } catch {
    rootReal = path.resolve(root);
  }
  const inside = (p: string) => resolvesInside(rootReal, path.resolve(p));
  return {
    readFile: (p) => (inside(p) ? diskFileSystem.readFile(p) : undefined),
    exists: (p) => inside(p) && diskFileSystem.exists(p),
  };
}

export interface LoadMakefileOptions {
  /** Absolute repository root (paths in the result are relative to it). */
  root: string;
  /** Directory make runs in; default the Makefile's directory. */
  dir?: string;
  /** Variables as given on the command line (`make X=y`). */
  variables?: Record<string, string>;
  /** The environment make runs in (a CI step's env): variables a Makefile assignment overrides and `?=` keeps. */
  environment?: Record<string, string>;
  fs?: MakeFileSystem;
  /** `fs` answers exactly as the repository's file system does (a per-run memo of it), so reads through it may be cached. */
  fsIsRepo?: boolean;
  /** The cache of reads (default: the process's, `cacheFor(root)`); not used with a custom `fs` unless `fsIsRepo`. */
  cache?: Cache;
}

/** The cache namespace of Makefile reads. */
export const MAKE_CACHE_NS = 'make';

/** One file-system answer the reader got: a file's text (by hash; null: unreadable) or whether a path exists. */
type FsAnswer = ['read', string, string | null] | ['exists', string, boolean];

interface CachedRead {
  answers: FsAnswer[];
  state: ReaderSnapshot;
}

const textHash = (text: string | undefined) => (text === undefined ? null : sha256Hex(text));

/** True when `fs` still gives every answer the cached read got (so reading again would do exactly the same). */
function stillAnswers(fs: MakeFileSystem, answers: readonly FsAnswer[]): boolean {
  return answers.every((a) => (a[0] === 'read' ? textHash(fs.readFile(a[1])) === a[2] : fs.exists(a[1]) === a[2]));
}

/**
 * Read one Makefile as `make -C DIR -f FILE` would, returning the reader (its `db` holds the result).
 * With the cache (`options.cache`, else the process's; never with a custom `fs` but the repository's own memo), a read is kept with
 * every file-system answer it got (the Makefile's and each include's text by hash, each include
 * candidate's existence): when the files still give the same answers, the kept reader is revived
 * instead of reading again — exactly the reader a new read would build.
 */
export function loadMakefile(absPath: string, options: LoadMakefileOptions): MakeReader {
  const cache = options.fs && !options.fsIsRepo ? undefined : (options.cache ?? cacheFor(options.root));
  if (!cache?.enabled) return readMakefileFresh(absPath, options, options.fs ?? repoFileSystem(options.root));
  const fs = options.fs ?? repoFileSystem(options.root);
  const key = JSON.stringify([path.resolve(options.root), path.resolve(absPath), options.dir ?? null, options.variables ?? {}, options.environment ?? {}]);
  const hit = cache.getValue<CachedRead>(MAKE_CACHE_NS, key);
  if (hit && stillAnswers(fs, hit.answers)) return MakeReader.revive(hit.state, { root: options.root, fs });
  const answers: FsAnswer[] = [];
  let recording = true;
  const recorder: MakeFileSystem = {
    readFile(p) {
      const text = fs.readFile(p);
      if (recording) answers.push(['read', p, textHash(text)]);
      return text;
    },
    exists(p) {
      const yes = fs.exists(p);
      if (recording) answers.push(['exists', p, yes]);
      return yes;
    },
  };
  const reader = readMakefileFresh(absPath, options, recorder);
  recording = false; // later reads ($(eval) while expanding) happen alike on a revived reader
  cache.putValue(MAKE_CACHE_NS, key, { answers, state: reader.snapshot() } satisfies CachedRead);
  return reader;
}

function readMakefileFresh(absPath: string, options: LoadMakefileOptions, fs: MakeFileSystem): MakeReader {
  const dir = options.dir ?? path.dirname(absPath);
  const rel = path.relative(options.root, absPath).split(path.sep).join('/');
  const db: MakeDatabase = emptyDatabase(rel, dir);
  db.vars.setSimple('CURDIR', dir, 'default');
  db.vars.setSimple('MAKE', 'make', 'default');
  db.vars.setSimple('SHELL', '/bin/sh', 'default');
  db.vars.setSimple('MAKEFLAGS', '', 'default');
  for (const [k, v] of Object.entries(options.environment ?? {})) db.vars.set(k, { flavor: 'simple', value: v, origin: 'environment', exported: true });
  for (const [k, v] of Object.entries(options.variables ?? {})) db.vars.set(k, { flavor: 'simple', value: v, origin: 'command line' });
  const reader = new MakeReader(db, { root: options.root, fs });
  reader.readFile(absPath);
  const goal = db.vars.get('.DEFAULT_GOAL')?.value.trim();
  if (goal) db.defaultGoal = goal;
  return reader;
}
