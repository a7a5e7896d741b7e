/**
 * The persistent cache's file store: finds a repository's cache folder (the git
 * common dir found without a git process, else the XDG cache dir; see
 * engine.ts `whereIs`), reads and writes entries, and clears or describes the
 * folder. Each pinwatch version (and build) has a folder of its own; other
 * versions' folders are ignored until `cache clear` removes them.
 *
 * Writes are atomic (a temp file in the entry's folder, then a rename), so two
 * runs writing the same entry both rename and a reader sees one whole file.
 * Nothing here ever fails a command: an unreadable entry is a miss, and the
 * first failed write (read-only or full disk) turns writing off for the run and
 * is told once through `warn`.
 *
 * The CLI configures the cache once per run (`configureCache`, from --no-cache
 * and the environment); the library's readers ask `cacheFor(root)`, which is a
 * disabled cache unless configured, so library callers write nothing unless
 * they opt in.
 */
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync, type Dirent } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { PinwatchError } from '../errors.js';
import { checkNamespace, decodeEntry, encodeEntry, entryPath, versionFolder, whereIs, type CacheEnv, type CachePlace } from './engine.js';

export interface CacheOptions {
  /** False: every get misses and nothing is written. */
  enabled: boolean;
  /** The repository's cache folder, instead of the one found (tests; `cache info` says which). */
  dir?: string;
  /** PINWATCH_CACHE_DIR, XDG_CACHE_HOME, HOME (default: process.env). */
  env?: CacheEnv;
  /** Told once, the first time a write fails (after which nothing more is written). */
  warn?: (message: string) => void;
}

export interface CacheStats {
  hits: number;
  misses: number;
  writes: number;
  /** The first write error, when writing was turned off. */
  writeError?: string;
  /** What was reused as a whole, and why not (the tree-state snapshot's lines), for -v. */
  notes: string[];
}

export interface Cache {
  readonly enabled: boolean;
  /** This version's folder (entries live under it), or undefined when there is no cache. */
  readonly dir: string | undefined;
  get(ns: string, key: string): Buffer | undefined;
  getJson<T>(ns: string, key: string): T | undefined;
  /** A value stored by putValue (structured clone: undefined members, Maps and Sets survive). */
  getValue<T>(ns: string, key: string): T | undefined;
  put(ns: string, key: string, value: Uint8Array | string): void;
  putJson(ns: string, key: string, value: unknown): void;
  putValue(ns: string, key: string, value: unknown): void;
  /** Keep a line for the run's summary under -v (what was reused, or why not). */
  note(line: string): void;
  stats(): CacheStats;
}

let identity: { version: string; stamp: string } | undefined;

/** pinwatch's version (package.json two folders up, in src/ and dist/ alike) and this build's stamp (this file's mtime). */
function pinwatchIdentity(): { version: string; stamp: string } {
  if (identity) return identity;
  let version = 'unknown';
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    if (typeof pkg.version === 'string') version = pkg.version;
  } catch {
    /* an unknown version is still one namespace */
  }
  let stamp = '';
  try {
    stamp = Math.trunc(statSync(fileURLToPath(import.meta.url)).mtimeMs).toString(36);
  } catch {
    stamp = '';
  }
  identity = { version, stamp };
  return identity;
}

/** The folder name of this pinwatch's entries (`v0.1.0+<build stamp>`). */
export function currentVersionFolder(): string {
  const { version, stamp } = pinwatchIdentity();
  return versionFolder(version, stamp);
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The git common dir of the repository holding `start`, found the way git does
 * without running it: the nearest `.git` at or above it, a folder, or a file
 * `gitdir: …` (a worktree or submodule) whose git dir may name a `commondir`.
 */
export function findGitCommonDir(start: string): string | undefined {
  return findGitPlace(start)?.common;
}

/**
 * Where `start` sits in its repository, found as findGitCommonDir finds it: the
 * work tree's top (the folder holding `.git`) and the git common dir.
 */
export function findGitPlace(start: string): { top: string; common: string } | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    let st;
    try {
      st = statSync(dotGit);
    } catch {
      st = undefined;
    }
    if (st?.isDirectory()) return { top: dir, common: dotGit };
    if (st?.isFile()) {
      try {
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
        if (!m) return undefined;
        const gitDir = resolve(dir, m[1]!);
        let common = gitDir;
        try {
          common = resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim());
        } catch {
          common = gitDir;
        }
        return isDir(common) ? { top: dir, common } : undefined;
      } catch {
        return undefined;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function realRoot(repoRoot: string): string {
  try {
    return realpathSync(repoRoot);
  } catch {
    return resolve(repoRoot);
  }
}

/** Where the cache of `repoRoot` lives (the folder holding every version's), or undefined when none is known. */
export function cachePlace(repoRoot: string, options: Pick<CacheOptions, 'dir' | 'env'> = {}): CachePlace | undefined {
  if (options.dir) return { dir: resolve(options.dir), source: 'env' };
  const root = realRoot(repoRoot);
  const gitCommonDir = findGitCommonDir(root);
  return whereIs({ root, ...(gitCommonDir ? { gitCommonDir } : {}) }, options.env ?? process.env);
}

const DISABLED: Cache = {
  enabled: false,
  dir: undefined,
  get: () => undefined,
  getJson: () => undefined,
  getValue: () => undefined,
  put: () => undefined,
  putJson: () => undefined,
  putValue: () => undefined,
  note: () => undefined,
  stats: () => ({ hits: 0, misses: 0, writes: 0, notes: [] }),
};

/** The key of a structured-clone value: the V8 serializer's format is V8's, so its version is part of the key. */
const valueKey = (key: string) => `v8 ${process.versions.v8}\0${key}`;

/** The cache of `repoRoot`: a disabled one when `enabled` is false or no folder is known. */
export function openCache(repoRoot: string, options: CacheOptions): Cache {
  if (!options.enabled) return DISABLED;
  const place = cachePlace(repoRoot, options);
  if (!place) return DISABLED;
  const dir = join(place.dir, currentVersionFolder());
  const made = new Set<string>();
  const stats: CacheStats = { hits: 0, misses: 0, writes: 0, notes: [] };

  const get = (ns: string, key: string): Buffer | undefined => {
    checkNamespace(ns);
    let body: Buffer | undefined;
    try {
      body = decodeEntry(readFileSync(join(dir, entryPath(ns, key))), ns, key);
    } catch {
      body = undefined;
    }
    if (body) stats.hits++;
    else stats.misses++;
    return body;
  };

  const put = (ns: string, key: string, value: Uint8Array | string): void => {
    checkNamespace(ns);
    if (stats.writeError !== undefined) return;
    const file = join(dir, entryPath(ns, key));
    const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    try {
      const folder = dirname(file);
      if (!made.has(folder)) {
        mkdirSync(folder, { recursive: true });
        made.add(folder);
      }
      writeFileSync(tmp, encodeEntry(ns, key, typeof value === 'string' ? Buffer.from(value, 'utf8') : value), { flag: 'wx' });
      renameSync(tmp, file);
      stats.writes++;
    } catch (e) {
      try {
        unlinkSync(tmp);
      } catch {
        /* never created */
      }
      stats.writeError = (e as Error).message;
      options.warn?.(`pinwatch: the cache in ${dir} cannot be written (${stats.writeError}); running without writing it`);
    }
  };

  return {
    enabled: true,
    dir,
    get,
    getJson<T>(ns: string, key: string): T | undefined {
      const body = get(ns, key);
      if (!body) return undefined;
      try {
        return JSON.parse(body.toString('utf8')) as T;
      } catch {
        return undefined;
      }
    },
    getValue<T>(ns: string, key: string): T | undefined {
      const body = get(ns, valueKey(key));
      if (!body) return undefined;
      try {
        return deserialize(body) as T;
      } catch {
        return undefined;
      }
    },
    put,
    putJson: (ns, key, value) => put(ns, key, JSON.stringify(value)),
    putValue: (ns, key, value) => put(ns, valueKey(key), serialize(value)),
    note: (line) => void stats.notes.push(line),
    stats: () => ({ ...stats, notes: [...stats.notes] }),
  };
}

// ---- the process's cache setting (set by the CLI) ----

let configured: Omit<CacheOptions, 'dir'> & { dir?: string } = { enabled: false };
let opened = new Map<string, Cache>();

/** Set how `cacheFor` opens caches for the rest of the process (the CLI does, once per run). */
export function configureCache(options: CacheOptions): void {
  configured = { ...options };
  opened = new Map();
}

/** Every cache `cacheFor` opened since the last configureCache, enabled or not (for a run's summary under -v). */
export function openedCaches(): Cache[] {
  return [...opened.values()];
}

/**
 * Run `fn` with no cache for `repoRoot` (nothing read or written for it) and the
 * configured one for every other root: a throwaway tree (PR mode's export of the
 * base revision to a temp folder) would otherwise fill the XDG cache with a
 * folder of entries, keyed by a path no later run has, on every run.
 */
export async function withoutCacheFor<T>(repoRoot: string, fn: () => Promise<T>): Promise<T> {
  const root = resolve(repoRoot);
  const had = opened.get(root);
  opened.set(root, DISABLED);
  try {
    return await fn();
  } finally {
    if (had) opened.set(root, had);
    else opened.delete(root);
  }
}

/** The cache of `repoRoot` as configured (one per root per configuration); disabled unless configured. */
export function cacheFor(repoRoot: string): Cache {
  const root = resolve(repoRoot);
  let cache = opened.get(root);
  if (!cache) {
    cache = openCache(root, configured);
    opened.set(root, cache);
  }
  return cache;
}

// ---- cache info / cache clear ----

export interface VersionUsage {
  /** The version folder (`v0.1.0+…`). */
  name: string;
  entries: number;
  bytes: number;
  /** True for this pinwatch's own folder. */
  current: boolean;
}

export interface CacheInfo {
  /** The repository's cache folder (all versions), or undefined when none is known. */
  dir: string | undefined;
  source?: CachePlace['source'];
  /** This pinwatch's version folder name. */
  version: string;
  versions: VersionUsage[];
  entries: number;
  bytes: number;
}

/** Count the entry files (and their bytes) under `dir`; temp files left by a killed run count as bytes only. */
function usage(dir: string): { entries: number; bytes: number } {
  let entries = 0;
  let bytes = 0;
  const walk = (d: string) => {
    let names: Dirent[];
    try {
      names = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n.name);
      if (n.isDirectory()) walk(p);
      else if (n.isFile()) {
        try {
          bytes += statSync(p).size;
        } catch {
          continue;
        }
        if (!n.name.endsWith('.tmp')) entries++;
      }
    }
  };
  walk(dir);
  return { entries, bytes };
}

/** What the cache of `repoRoot` holds, per version folder. */
export function cacheInfo(repoRoot: string, options: Pick<CacheOptions, 'dir' | 'env'> = {}): CacheInfo {
  const place = cachePlace(repoRoot, options);
  const version = currentVersionFolder();
  if (!place) return { dir: undefined, version, versions: [], entries: 0, bytes: 0 };
  let names: string[] = [];
  try {
    names = readdirSync(place.dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    names = [];
  }
  const versions = names.map((name) => ({ name, ...usage(join(place.dir, name)), current: name === version }));
  return {
    dir: place.dir,
    source: place.source,
    version,
    versions,
    entries: versions.reduce((n, v) => n + v.entries, 0),
    bytes: versions.reduce((n, v) => n + v.bytes, 0),
  };
}

/** Remove the cache of `repoRoot` (every version's folder); says what was there. Throws `cache-clear-failed` when it cannot. */
export function clearCache(repoRoot: string, options: Pick<CacheOptions, 'dir' | 'env'> = {}): CacheInfo {
  const info = cacheInfo(repoRoot, options);
  if (!info.dir) return info;
  try {
    rmSync(info.dir, { recursive: true, force: true });
  } catch (e) {
    throw new PinwatchError('cache-clear-failed', `cannot remove the cache folder ${info.dir}: ${(e as Error).message}; remove it by hand (deleting it is always safe)`);
  }
  return info;
}
