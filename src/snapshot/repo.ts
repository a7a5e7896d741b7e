/**
 * The tree-state snapshot: what the scan, the build model and the build inputs
 * derived from the work tree (what `staleReport` and `checkRepo` get from
 * `scanRepo` and `imagesFromPins`), kept in the persistent cache with the
 * record of every path that derivation touched (util/tracked-fs.ts: each file
 * read, directory listed, path stat'd or resolved), under the config's hash and
 * pinwatch's version (the cache's version folder). The next run checks the
 * record with lstat calls (a changed directory is listed again, a racy file
 * hashed again) and, when it holds, reuses the derivation instead of walking,
 * reading and deriving again. Any change that could alter the derivation
 * invalidates it: an edited or new pin file, values file, Makefile, Dockerfile
 * or Go file where a reader looked, a retargeted symlink, a deleted file, another
 * config. A new file no reader notices (no include glob, not YAML, no recipe
 * kind's name) in a directory only the walk listed does not.
 * Under -v the cache summary says what was reused, or why not.
 */
import { createHash, randomUUID } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { cacheFor, type Cache } from '../cache/index.js';
import type { Config } from '../config/types.js';
import { imagesFromPins, type ImagesResult } from '../images/images.js';
import { startRecovery } from '../journal/index.js';
import { findMakefiles } from '../producers/discover.js';
import { RECIPE_READERS } from '../producers/kinds.js';
import { scanRepo, type ScanResult } from '../scan/index.js';
import { walkNoticesFile } from '../scan/walk.js';
import { checkRecord, recordReads, unchangedSince, type HarmlessEntry, type ReadRecord } from '../util/tracked-fs.js';

/** The cache namespace of tree-state snapshots. */
export const SNAPSHOT_NS = 'snapshot';

export interface DerivedTree {
  scan: ScanResult;
  known: ImagesResult;
  /**
   * Whether the snapshot was reused, and why not; `id` names the snapshot this
   * derivation is (reused, or kept by this run): stale/reuse.ts ties an answer to it.
   */
  snapshot: { reused: boolean; reason?: string; id?: string };
}

export interface DeriveOptions {
  /** The cache (default: the process's, `cacheFor(root)`); a disabled one derives without a snapshot. */
  cache?: Cache;
  /** Called as soon as the pins are known (stale starts reading their blobs), reused or derived (`reused`). */
  onScan?: (scan: ScanResult, reused: boolean) => void;
}

interface Snapshot {
  /** Names this derivation (kept when its record's stats are refreshed). */
  id?: string;
  record: ReadRecord;
  scan: Omit<ScanResult, 'root' | 'config' | 'recipeTree'>;
  known: ImagesResult;
}

/** A stable hash of the loaded config (every key it holds, in its order: what the derivation was given). */
export function configHash(config: Config): string {
  const text = JSON.stringify(config, (_k, v: unknown) => (v instanceof RegExp ? `/${v.source}/${v.flags}` : v instanceof Map ? [...v] : v instanceof Set ? [...v] : v));
  return createHash('sha256').update(text).digest('hex');
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function realOf(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

/**
 * Which new or removed directory entries change nothing: a regular file that
 * the walk does not notice (walkNoticesFile) and no recipe kind finds by name.
 */
function harmlessEntries(root: string, config: Config): HarmlessEntry {
  let notices: ((rel: string) => boolean) | undefined;
  return (dir, name, type) => {
    if (type !== 'f') return false;
    const rel = relative(root, join(dir, name)).split(sep).join('/');
    if (rel.startsWith('../') || rel === '..' || rel === '') return false;
    notices ??= walkNoticesFile(root, config);
    if (notices(rel)) return false;
    const tree = { files: [rel], vendored: [] };
    if (findMakefiles(root, config.exclude, tree).length > 0) return false;
    return !RECIPE_READERS.some((r) => r.find(root, config.exclude, tree).includes(rel));
  };
}

/**
 * The scan and image knowledge of the tree at `repoRoot` — from the snapshot
 * when its record still holds, else derived (and, when nothing changed while
 * deriving, kept as the new snapshot).
 */
export async function deriveTree(repoRoot: string, config: Config, options: DeriveOptions = {}): Promise<DerivedTree> {
  const root = resolve(repoRoot);
  const cache = options.cache ?? cacheFor(root);
  const derive = async (recovery?: Awaited<ReturnType<typeof startRecovery>>) => {
    const scan = await scanRepo(root, config, { recipeTree: true, ...(recovery ? { recovery } : {}) });
    options.onScan?.(scan, false);
    const known = await imagesFromPins(root, config, scan.pins, undefined, scan.recipeTree ? { tree: scan.recipeTree } : {});
    return { scan, known };
  };
  // no cache, or no directory to look at (the scan then says so, as without a cache)
  if (!cache.enabled || !isDirectory(root)) return { ...(await derive()), snapshot: { reused: false, reason: 'no cache' } };
  // an interrupted write is finished (or undone) first: the tree is then what the record is checked against
  const started = await startRecovery(root);
  // stale temp files of a killed run are looked for (in git) while the record is checked
  const temps = started.staleTemps();
  const recovered = async () => {
    const found = await temps;
    return started.journal.length > 0 || found.length > 0 ? { journal: started.journal, staleTemps: async () => found } : undefined;
  };
  if (started.journal.length > 0) {
    cache.note('tree snapshot not used: an interrupted write was recovered in this run');
    return { ...(await derive(await recovered())), snapshot: { reused: false, reason: 'an interrupted write was recovered' } };
  }
  const recovery = { journal: started.journal, staleTemps: () => temps };
  const key = JSON.stringify(['tree', realOf(root), configHash(config)]);
  const kept = cache.getValue<Snapshot>(SNAPSHOT_NS, key);
  let reason = 'none kept for this config and pinwatch build';
  if (kept) {
    const t0 = performance.now();
    const check = checkRecord(kept.record, harmlessEntries(root, config), realOf(root));
    const ms = Math.round(performance.now() - t0);
    if (check.holds && (await recovered())) {
      cache.note('tree snapshot not used: a killed run\'s temp files were removed in this run');
      return { ...(await derive(recovery)), snapshot: { reused: false, reason: 'an interrupted write was recovered' } };
    }
    if (check.holds) {
      // answers checked by content (an edit undone, a fresh checkout): keep today's stats, so the next check is lstat-only
      if (check.refreshed) cache.putValue(SNAPSHOT_NS, key, { ...kept, record: check.refreshed } satisfies Snapshot);
      cache.note(`tree snapshot reused: scan, build model and inputs of ${kept.known.images.length} image(s); ${check.stats.paths} paths checked (${check.stats.listed} listed again, ${check.stats.hashed} hashed again${check.refreshed ? ', their stats kept for the next run' : ''}) in ${ms} ms`);
      const scan: ScanResult = { ...kept.scan, root, config };
      options.onScan?.(scan, true);
      return { scan, known: kept.known, snapshot: { reused: true, ...(kept.id ? { id: kept.id } : {}) } };
    }
    reason = check.reason ?? 'its record does not hold';
  }
  const { value, record } = await recordReads(() => derive(recovery));
  let kept2 = 'kept for the next run';
  let id: string | undefined;
  if (await recovered()) kept2 = 'not kept: an interrupted write was recovered in this run';
  else if (record.unusable) kept2 = `not kept: ${record.unusable}`;
  else if (!unchangedSince(record)) kept2 = 'not kept: a file changed while it was read';
  else {
    const { root: _r, config: _c, recipeTree: _t, ...scan } = value.scan;
    id = randomUUID();
    cache.putValue(SNAPSHOT_NS, key, { id, record, scan, known: value.known } satisfies Snapshot);
  }
  cache.note(`tree snapshot not used (${reason}); derived again from ${record.paths.length} paths, ${kept2}`);
  return { ...value, snapshot: { reused: false, reason, ...(id ? { id } : {}) } };
}
