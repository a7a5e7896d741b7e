/**
 * A V8 code cache for the bundle's chunks (README "Start-up", and Cache, "The
 * compile cache"): the bin's start (./start.ts) loads dist/bundle/ through `chunkLoader`,
 * which compiles each chunk with the bytecode a run before kept for it, and at
 * the end of a run keeps, for each chunk compiled without, the bytecode of every
 * function that run compiled (`Script#createCachedData` after execution, so the
 * lazily compiled functions are in it too). What Node 22's
 * `module.enableCompileCache` does, for Node 20 and for our chunks alone: no
 * hook into Node's loader; a chunk's `require('./x.cjs')` of a sibling chunk
 * comes back here, anything else (a built-in: the bundle leaves nothing else
 * out) goes to the bin's `require` (`node:module`'s createRequire would load
 * Node's ESM loader, which the CommonJS bin avoids).
 *
 * Safe by construction: an entry is used only for the very source it was made
 * from (its sha1 is in the entry; V8's own check compares the source's length
 * alone) under the same Node, architecture, V8 flags and command (the entry's name), and
 * only when whole (its length and the sha1 of V8's data; a sha1 from `node:crypto`,
 * which the source's check loads anyway, where a crc32 would load `node:zlib` for
 * it alone); V8 then checks its version and flags
 * again. Anything else is a miss: the chunk is compiled from source, as without
 * the cache. Entries are written atomically (a temp file, then a rename) in a
 * folder of the user's own (one that another user can write is no cache:
 * `folderIsOwn`), and at most MAX_ENTRIES are kept (the oldest go).
 * The first run with a folder (per Node and flags) writes only a mark, so a
 * machine that runs pinwatch once pays nothing; the runs after it keep entries.
 * Nothing here changes what a command prints or fails a run: the cache only
 * saves compile time, so a folder that cannot be written is no cache.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
// built-ins only the loader needs come from process.getBuiltinModule when it runs: `--version` loads none of them
import type { Script } from 'node:vm';

/** The environment the cache reads: PINWATCH_COMPILE_CACHE, NODE_DISABLE_COMPILE_CACHE, XDG_CACHE_HOME, HOME. */
export type CompileCacheEnv = Readonly<Record<string, string | undefined>>;

/** Where the cache is, or why there is none. */
export type CompileCachePlace = { dir: string; source: 'env' | 'xdg' } | { off: string };

/** At most this many entries are kept: several builds' worth (each command of a build keeps 30–60). */
export const MAX_ENTRIES = 1000;

/**
 * The cache folder: `$PINWATCH_COMPILE_CACHE` (an absolute path; `0`, `false`
 * or `off` turn the cache off), else `$XDG_CACHE_HOME/pinwatch/compile`, else
 * `$HOME/.cache/pinwatch/compile`; none when NODE_DISABLE_COMPILE_CACHE is set
 * (Node's own switch) or no folder is known.
 */
export function compileCachePlace(env: CompileCacheEnv): CompileCachePlace {
  const own = env.PINWATCH_COMPILE_CACHE;
  if (env.NODE_DISABLE_COMPILE_CACHE) return { off: 'NODE_DISABLE_COMPILE_CACHE is set' };
  if (own !== undefined && own !== '') {
    if (['0', 'false', 'off'].includes(own.toLowerCase())) return { off: `PINWATCH_COMPILE_CACHE=${own}` };
    if (!isAbsolute(own)) return { off: `PINWATCH_COMPILE_CACHE is not an absolute path (${own})` };
    return { dir: own, source: 'env' };
  }
  const base = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : env.HOME && isAbsolute(env.HOME) ? join(env.HOME, '.cache') : undefined;
  return base ? { dir: join(base, 'pinwatch', 'compile'), source: 'xdg' } : { off: 'neither XDG_CACHE_HOME nor HOME is set' };
}

/**
 * Whether a folder whose stat is `st` (undefined: none yet) may hold the entries of the user `uid`: none yet
 * (it is made 0700 when the first entry is written), or a directory of this user's that no other can write,
 * since whoever can write an entry chooses the bytecode pinwatch runs. Where there are no user ids (Windows), any
 * directory.
 */
export function folderIsOwn(st: { isDirectory(): boolean; uid: number; mode: number } | undefined, uid: number | undefined): boolean {
  if (!st) return true;
  if (!st.isDirectory()) return false;
  return uid === undefined || (st.uid === uid && (st.mode & 0o022) === 0);
}

/** folderIsOwn of the folder `dir` as it is now, for this process's user (a path below a file: none yet, and no cache once written). */
export function usableFolder(dir: string): boolean {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(dir, { throwIfNoEntry: false });
  } catch {
    st = undefined;
  }
  return folderIsOwn(st, process.getuid?.());
}

/** The first bytes of an entry. */
const MAGIC = Buffer.from('pinwatch-v8-cache 2\n');
/** MAGIC, the source's sha1 (20 bytes), the data's length (4 bytes) and sha1 (20 bytes), then the data. */
const HEADER = MAGIC.length + 44;

/** sha1 of some bytes (20 bytes). */
type Sha1 = (data: Uint8Array) => Buffer;

/** The bytes of an entry holding V8's `data` for the source whose sha1 is `sourceSha1`. */
export function encodeCompileEntry(sourceSha1: Buffer, data: Buffer, sha1: Sha1): Buffer {
  const header = Buffer.alloc(HEADER);
  MAGIC.copy(header);
  sourceSha1.copy(header, MAGIC.length);
  header.writeUInt32BE(data.length, MAGIC.length + 20);
  sha1(data).copy(header, MAGIC.length + 24);
  return Buffer.concat([header, data]);
}

/** V8's data from an entry made for the source whose sha1 is `sourceSha1`, when whole; undefined for anything else. */
export function decodeCompileEntry(entry: Buffer, sourceSha1: Buffer, sha1: Sha1): Buffer | undefined {
  if (entry.length < HEADER || !entry.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  if (!entry.subarray(MAGIC.length, MAGIC.length + 20).equals(sourceSha1)) return undefined;
  const data = entry.subarray(HEADER);
  if (data.length !== entry.readUInt32BE(MAGIC.length + 20) || !sha1(data).equals(entry.subarray(MAGIC.length + 24, HEADER))) return undefined;
  return data;
}

/** What the folder `dir` holds (`cache info`): its entries (marks and temp files not counted) and all its bytes. */
export function compileCacheUsage(dir: string): { entries: number; bytes: number } {
  let entries = 0;
  let bytes = 0;
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return { entries, bytes };
  }
  for (const name of names) {
    const st = statSync(join(dir, name), { throwIfNoEntry: false });
    if (!st?.isFile()) continue;
    bytes += st.size;
    if (/^[0-9a-f]{40}$/.test(name)) entries++;
  }
  return { entries, bytes };
}

/** The names to remove so that at most `max` entries stay: the least recently written first. */
export function entriesToPrune(entries: readonly { name: string; mtimeMs: number }[], max: number): string[] {
  if (entries.length <= max) return [];
  return [...entries].sort((a, b) => a.mtimeMs - b.mtimeMs || (a.name < b.name ? -1 : 1)).slice(0, entries.length - max).map((e) => e.name);
}

/**
 * What the cache did in this process (tests): chunks compiled with kept bytecode, without (none kept, or V8
 * refused it), entries written, and whether this was the first run of this Node and these flags with the
 * folder (`marked`: nothing written but its mark).
 */
export interface CompileCacheStats {
  used: number;
  missed: number;
  rejected: number;
  written: number;
  marked: boolean;
}

const stats: CompileCacheStats = { used: 0, missed: 0, rejected: 0, written: 0, marked: false };

export function compileCacheStats(): CompileCacheStats {
  return { ...stats };
}

/** A chunk loaded: CommonJS's `module`. */
interface Loaded {
  exports: unknown;
  id: string;
  filename: string;
  loaded: boolean;
}

/** A chunk's Node wrapper (what Node's CommonJS loader compiles it as). */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;

/** A sibling chunk by the name rolldown writes (`./name-hash.cjs`); anything else is Node's. */
const SIBLING = /^\.\/[^/\\]+\.cjs$/;

/**
 * The chunk loader of one process: `load(file)` is `require(file)` for a chunk
 * of the bundle, with the cache in the folder `dir` for V8 flags `flagsKey`
 * (node's own and those set at run time) and the run's `command`: each command
 * keeps entries of its own, holding the functions its runs compile (an entry
 * another command wrote holds that command's, and the rest are compiled again
 * each run: README "Start-up"). What is not a sibling chunk comes from
 * `nodeRequire`. The entries are written when the process exits.
 */
export function chunkLoader(dir: string, flagsKey: string, nodeRequire: (id: string) => unknown, command = ''): (file: string) => unknown {
  if (!usableFolder(dir)) return nodeRequire;
  const { createHash } = process.getBuiltinModule('node:crypto');
  const sha1 = (data: Uint8Array): Buffer => createHash('sha1').update(data).digest();
  const { Script } = process.getBuiltinModule('node:vm');
  const modules = new Map<string, Loaded>();
  const toKeep: { script: Script; path: string; sourceSha1: Buffer }[] = [];
  const entryPath = (file: string) => join(dir, sha1(Buffer.from(`${file}\0${process.version}\0${process.arch}\0${flagsKey}\0${command}`)).toString('hex'));
  const mark = join(dir, `ran-${sha1(Buffer.from(`${process.version}\0${process.arch}\0${flagsKey}`)).toString('hex')}`);

  const load = (file: string): unknown => {
    const have = modules.get(file);
    if (have) return have.exports;
    const bytes = readFileSync(file);
    const sourceSha1 = sha1(bytes);
    const path = entryPath(file);
    let cachedData: Buffer | undefined;
    try {
      cachedData = decodeCompileEntry(readFileSync(path), sourceSha1, sha1);
    } catch {
      cachedData = undefined; // none kept yet
    }
    const script = new Script(wrap(bytes.toString('utf8')), { filename: file, ...(cachedData ? { cachedData } : {}) });
    if (cachedData && !script.cachedDataRejected) stats.used++;
    else {
      stats[cachedData ? 'rejected' : 'missed']++;
      toKeep.push({ script, path, sourceSha1 });
    }
    const module: Loaded = { exports: {}, id: file, filename: file, loaded: false };
    modules.set(file, module);
    const here = dirname(file);
    const require = (id: string) => (SIBLING.test(id) ? load(join(here, id.slice(2))) : nodeRequire(id));
    const fn = script.runInThisContext() as (...args: unknown[]) => void;
    fn.call(module.exports, module.exports, require, module, file, here);
    module.loaded = true;
    return module.exports;
  };

  process.once('exit', () => keep(dir, mark, toKeep, sha1));
  return load;
}

/**
 * Write each entry (a temp file renamed over it) and prune the folder; any failure ends the writing quietly.
 * The first run of this Node and these flags with the folder writes only `mark`: a machine that runs pinwatch
 * once (a CI job on a fresh runner) pays nothing for bytecode it will never use (about 20 ms on cozystack).
 */
function keep(dir: string, mark: string, toKeep: readonly { script: Script; path: string; sourceSha1: Buffer }[], sha1: Sha1): void {
  if (toKeep.length === 0) return;
  try {
    if (!existsSync(mark)) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(mark, '', { mode: 0o600 });
      stats.marked = true;
      return;
    }
    for (const { script, path, sourceSha1 } of toKeep) {
      const temp = `${path}.${process.pid}.tmp`;
      try {
        writeFileSync(temp, encodeCompileEntry(sourceSha1, script.createCachedData(), sha1), { mode: 0o600 });
        renameSync(temp, path);
      } catch (e) {
        rmSync(temp, { force: true }); // a full disk leaves no half-written temp behind
        throw e;
      }
      stats.written++;
    }
    const names = readdirSync(dir);
    if (names.length > MAX_ENTRIES) {
      const entries = names.flatMap((name) => {
        const st = statSync(join(dir, name), { throwIfNoEntry: false });
        return st ? [{ name, mtimeMs: st.mtimeMs }] : [];
      });
      for (const name of entriesToPrune(entries, MAX_ENTRIES)) rmSync(join(dir, name), { force: true });
    }
  } catch {
    // the cache only saves compile time: a folder that cannot be written is no cache
  }
}
