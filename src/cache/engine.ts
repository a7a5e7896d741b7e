/**
 * The pure core of the persistent cache: where a repository's cache lives (from
 * the git dir found and the environment), the name of an entry (a hash of its
 * namespace and key), and the entry's bytes — a header naming the namespace,
 * the key, the body's size and its sha256, then the body. Decoding checks all
 * four, so a torn, foreign or corrupt file is a miss, never a wrong answer.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** The environment variables the cache reads. */
export type CacheEnv = Readonly<Record<string, string | undefined>>;

/** The first line of every entry file. */
export const ENTRY_MAGIC = 'pinwatch-cache 1\n';

/** A namespace names one kind of fact (`scan`, `make`, `history`): a short lowercase word. */
const NAMESPACE = /^[a-z][a-z0-9-]{0,31}$/;

export function checkNamespace(ns: string): void {
  if (!NAMESPACE.test(ns)) throw new Error(`cache namespace ${JSON.stringify(ns)} is not a short lowercase word`);
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * The file of an entry, relative to the version folder: `<ns>/<64 hex>`. One flat folder per
 * namespace (a repository's cache holds hundreds of entries, not millions; creating folders
 * costs as much as creating the files).
 */
export function entryPath(ns: string, key: string): string {
  return join(ns, sha256Hex(`${ns}\0${key}`));
}

/**
 * The version folder's name: pinwatch's version, and a build stamp (a rebuilt
 * checkout of the same version is new code, so it starts a new namespace too).
 */
export function versionFolder(version: string, buildStamp: string): string {
  const safe = `${version}${buildStamp ? `+${buildStamp}` : ''}`.replace(/[^A-Za-z0-9._+-]/g, '_');
  return `v${safe}`;
}

/** What `whereIs` needs to know about the repository, found by the fs side (store.ts). */
export interface RepoPlace {
  /** The real path of the repository root. */
  root: string;
  /** Its git common dir (where objects and config live), when it is in a git repository. */
  gitCommonDir?: string;
}

/** Where a repository's cache lives (every version folder under it), and why there. */
export interface CachePlace {
  dir: string;
  /** `env`: PINWATCH_CACHE_DIR; `git`: in the git common dir; `xdg`: XDG_CACHE_HOME or ~/.cache. */
  source: 'env' | 'git' | 'xdg';
}

/** A folder of its own per repository outside the repository: named by a hash of its real path. */
export function repoFolderName(root: string): string {
  return sha256Hex(root).slice(0, 24);
}

/**
 * The cache folder of a repository: `$PINWATCH_CACHE_DIR/repos/<hash of the path>`
 * when set; else `<git common dir>/pinwatch/cache`; else
 * `$XDG_CACHE_HOME/pinwatch/repos/<hash>` (`$HOME/.cache` when XDG_CACHE_HOME is
 * unset). Undefined when none is known (no git dir and neither variable set).
 */
export function whereIs(place: RepoPlace, env: CacheEnv): CachePlace | undefined {
  if (env.PINWATCH_CACHE_DIR) return { dir: join(env.PINWATCH_CACHE_DIR, 'repos', repoFolderName(place.root)), source: 'env' };
  if (place.gitCommonDir) return { dir: join(place.gitCommonDir, 'pinwatch', 'cache'), source: 'git' };
  const base = env.XDG_CACHE_HOME || (env.HOME ? join(env.HOME, '.cache') : undefined);
  return base ? { dir: join(base, 'pinwatch', 'repos', repoFolderName(place.root)), source: 'xdg' } : undefined;
}

/** True unless the variable is unset, empty, `0` or `false`. */
export function envFlag(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

interface EntryHeader {
  ns: string;
  key: string;
  size: number;
  sha256: string;
}

/** The bytes of an entry file holding `body` under (ns, key). */
export function encodeEntry(ns: string, key: string, body: Uint8Array): Buffer {
  const header: EntryHeader = { ns, key, size: body.length, sha256: sha256Hex(body) };
  return Buffer.concat([Buffer.from(`${ENTRY_MAGIC}${JSON.stringify(header)}\n`, 'utf8'), body]);
}

/** The body of an entry file when it is whole and holds (ns, key); undefined for anything else. */
export function decodeEntry(file: Buffer, ns: string, key: string): Buffer | undefined {
  const magic = Buffer.byteLength(ENTRY_MAGIC);
  if (file.length < magic || file.toString('utf8', 0, magic) !== ENTRY_MAGIC) return undefined;
  const end = file.indexOf(0x0a, magic);
  if (end === -1) return undefined;
  let header: Partial<EntryHeader>;
  try {
    header = JSON.parse(file.toString('utf8', magic, end)) as Partial<EntryHeader>;
  } catch {
    return undefined;
  }
  if (!header || typeof header !== 'object' || header.ns !== ns || header.key !== key) return undefined;
  const body = file.subarray(end + 1);
  if (header.size !== body.length || header.sha256 !== sha256Hex(body)) return undefined;
  return body;
}
