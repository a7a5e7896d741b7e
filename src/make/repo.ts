/**
 * A pragmatic Make reader: read a Makefile (with its includes) into a database
 * of variables and rules, and expand a target's recipe with `$@` bound. What it
 * cannot know becomes a marker; what it cannot read becomes a problem.
 */
import { existsSync, lstatSync, realpathSync, statSync } from '../util/tracked-fs.js';
import * as path from 'node:path';
import { emptyDatabase, type MakeDatabase } from './database.js';
import { resolvesInside } from '../util/repo-path.js';
import { readRegularText } from '../util/safe-read.js';
import { MakeReader, type ReaderSnapshot } from './reader.js';
import { ALL_NAMES, type VariableLookups } from './variables.js';
import type { MakeVariable } from './types.js';
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

/** True when `abs` is a symlink; false when it is anything else or cannot be lstat'ed (missing: resolved as its directory). */
function isSymlink(abs: string): boolean {
  try {
    return lstatSync(abs).isSymbolicLink();
  } catch {
    return false;
  }
}

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
  // A path that is not a symlink resolves inside exactly when its directory does (its real path is the directory's
  // real path and its name, existing or not): one realpath per directory, not one per file.
  const dirs = new Map<string, boolean>();
  const insideDir = (dir: string) => {
    let yes = dirs.get(dir);
    if (yes === undefined) dirs.set(dir, (yes = resolvesInside(rootReal, dir)));
    return yes;
  };
  const inside = (p: string) => {
    const abs = path.resolve(p);
    const dir = path.dirname(abs);
    if (dir === abs || isSymlink(abs)) return resolvesInside(rootReal, abs);
    return insideDir(dir);
  };
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
  /** The names the reading looked up (MakeReader.readLookups), so the revived reader can be derived from. */
  lookups?: VariableLookups;
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
  if (hit && stillAnswers(fs, hit.answers)) return MakeReader.revive(hit.state, { root: options.root, fs }, hit.lookups);
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
  const lookups = reader.readLookups();
  cache.putValue(MAKE_CACHE_NS, key, { answers, state: reader.snapshot(), ...(lookups ? { lookups } : {}) } satisfies CachedRead);
  return reader;
}

/** The variables make starts with, before the command line's (`make X=y`) and its environment's. */
function defaultVariables(dir: string): [string, MakeVariable][] {
  return [
    ['CURDIR', { flavor: 'simple', value: dir, origin: 'default' }],
    ['MAKE', { flavor: 'simple', value: 'make', origin: 'default' }],
    ['SHELL', { flavor: 'simple', value: '/bin/sh', origin: 'default' }],
    ['MAKEFLAGS', { flavor: 'simple', value: '', origin: 'default' }],
  ];
}

const environmentVariable = (value: string): MakeVariable => ({ flavor: 'simple', value, origin: 'environment', exported: true });

function readMakefileFresh(absPath: string, options: LoadMakefileOptions, fs: MakeFileSystem): MakeReader {
  const dir = options.dir ?? path.dirname(absPath);
  const rel = path.relative(options.root, absPath).split(path.sep).join('/');
  const db: MakeDatabase = emptyDatabase(rel, dir);
  for (const [k, v] of defaultVariables(dir)) db.vars.set(k, v);
  for (const [k, v] of Object.entries(options.environment ?? {})) db.vars.set(k, environmentVariable(v));
  for (const [k, v] of Object.entries(options.variables ?? {})) db.vars.set(k, { flavor: 'simple', value: v, origin: 'command line' });
  const reader = new MakeReader(db, { root: options.root, fs });
  const lookups: VariableLookups = { values: new Set(), presence: new Set() };
  db.vars.lookups = lookups;
  try {
    reader.readFile(absPath);
    const goal = db.vars.get('.DEFAULT_GOAL')?.value.trim();
    if (goal) db.defaultGoal = goal;
  } finally {
    db.vars.lookups = undefined;
  }
  reader.seal(lookups);
  return reader;
}

/**
 * The reader a new read of `base`'s Makefile (same directory and command-line variables) would give under
 * `environment` instead of `baseEnvironment` (as loadMakefile's `environment` options; absent: none), built from
 * `base` without reading again; undefined when that cannot be known to be the same. Reading is a function of the
 * files and of the variables it looks up (every access goes through VariableStore.get or .peek, recorded while
 * reading: MakeReader.readLookups). Where it enumerated no names, and of the names the two environments give
 * differently looked up none and peeked only at those both define (peek's callers do the same for any two
 * environment variables of a name), a new read would do exactly what the base's did: the same rules, problems and
 * variables, but for those environment variables themselves, which still hold what the environment gave them
 * (variables in make's own order: its defaults, the environment, the command line, then the files'). Not derived:
 * a base changed since its reading (an `$(eval)` while expanding), or a name both an environment's and the
 * command line's.
 */
export function readerWithEnvironment(base: MakeReader, baseEnvironment: Readonly<Record<string, string>> | undefined, environment: Readonly<Record<string, string>> | undefined, options: { root: string; fs: MakeFileSystem }): MakeReader | undefined {
  const lookups = base.readLookups();
  if (!lookups || lookups.values.has(ALL_NAMES)) return undefined;
  const from = new Map(Object.entries(baseEnvironment ?? {}));
  const to = new Map(Object.entries(environment ?? {}));
  const differ = new Set([...from.keys(), ...to.keys()].filter((n) => from.get(n) !== to.get(n)));
  for (const n of differ) if (lookups.values.has(n) || (lookups.presence.has(n) && from.has(n) !== to.has(n))) return undefined;
  for (const n of new Set([...from.keys(), ...to.keys()])) if (base.db.vars.peek(n)?.origin === 'command line') return undefined;
  const snap = base.readSnapshot();
  if (!snap) return undefined;
  const derived = MakeReader.revive(structuredClone(snap), options, lookups);
  const current = new Map(derived.db.vars.ownEntries());
  const vars = new Map<string, MakeVariable>();
  // A name given differently holds what make set it to: its default, or the environment's value (peeked at,
  // perhaps re-exported: still the environment's variable), unless the files assigned it (then what they did).
  const initial = (n: string, fallback: MakeVariable | undefined): MakeVariable | undefined => {
    if (!differ.has(n)) return current.get(n);
    const cur = current.get(n);
    if (!to.has(n)) return fallback;
    if (cur !== undefined && from.has(n) && cur.origin !== 'environment') return cur;
    return cur?.origin === 'environment' ? { ...cur, value: to.get(n)! } : environmentVariable(to.get(n)!);
  };
  for (const [n, v] of defaultVariables(base.db.dir)) vars.set(n, initial(n, v)!);
  for (const n of to.keys()) if (!vars.has(n)) vars.set(n, initial(n, undefined)!);
  for (const [n, v] of current) if (!vars.has(n) && !(differ.has(n) && !to.has(n))) vars.set(n, v);
  derived.db.vars.replaceOwn(vars);
  return derived;
}
