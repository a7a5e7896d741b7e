/**
 * The repository's config kept between runs, for the commands whose reused
 * answers read no YAML otherwise (stale and check: stale/repo.ts lookFirst).
 * loadConfig's value is kept (cache namespace `config`) with the record of
 * every path its load touched (util/tracked-fs.ts): the config file's stat and
 * content hash, the lstats of the names it looked for, the realpaths of the
 * paths it named and resolved (dockerfile, producer writes), the listings read
 * for near-miss names. A later run whose record holds takes the kept value:
 * loadConfig reads nothing else, so it would return the same. Only on a miss is
 * load.ts, and with it the `yaml` package, loaded.
 *
 * Kept only for the repository's own config (a `--config` path is read as
 * given) and only when no path of the record is a symlink (a record check trusts
 * a symlink's own lstat first), nothing changed while it was read, and the load
 * succeeded: a config that fails is read, and fails, every run.
 */
import { resolve } from 'node:path';
import type { Cache } from '../cache/index.js';
import { checkRecord, recordReadsSync, unchangedSince, type ReadRecord } from '../util/tracked-fs.js';
import type { LoadConfigOptions } from './load.js';
import type { Config } from './types.js';

/** The cache namespace of kept configs. */
export const CONFIG_CACHE_NS = 'config';

interface KeptConfig {
  record: ReadRecord;
  config: Config;
}

/** No listing entry is harmless here: a new name at the root may be a second or a near-miss config. */
const NONE_HARMLESS = () => false;

/** loadConfig through the cache: the kept value while every path its load read gives the same answer. */
export async function loadConfigKept(repoRoot: string, opts: LoadConfigOptions, cache: Cache): Promise<Config> {
  if (!cache.enabled || opts.configPath !== undefined) return (await import('./load.js')).loadConfig(repoRoot, opts);
  const key = JSON.stringify(['config', resolve(repoRoot), opts.firstParty ?? []]);
  const kept = cache.getValue<KeptConfig>(CONFIG_CACHE_NS, key);
  if (kept && typeof kept === 'object' && kept.record && Array.isArray(kept.record.paths) && kept.config && typeof kept.config === 'object') {
    const check = checkRecord(kept.record, NONE_HARMLESS);
    if (check.holds) {
      if (check.refreshed) cache.putValue(CONFIG_CACHE_NS, key, { record: check.refreshed, config: kept.config } satisfies KeptConfig);
      return kept.config;
    }
    cache.note(`config read again: ${check.reason ?? 'changed'}`);
  }
  const { loadConfig } = await import('./load.js');
  const { value, record } = recordReadsSync(() => loadConfig(repoRoot, opts));
  if (!record.unusable && record.paths.every((p) => p.t === undefined && p.link === undefined) && unchangedSince(record)) {
    cache.putValue(CONFIG_CACHE_NS, key, { record, config: value } satisfies KeptConfig);
  }
  return value;
}
