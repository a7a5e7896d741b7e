/** `pinwatch cache info` and `cache clear` as text and JSON: where the repository's cache is, what it holds or held. */
import type { CacheInfo } from '../cache/index.js';
import { terminalSafe } from './sanitize.js';

/** How much, for people: `812 B`, `4.1 KB`, `12.3 MB` (powers of 1024). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

const WHERE: Record<NonNullable<CacheInfo['source']>, string> = {
  git: 'in the git dir',
  xdg: 'in the user cache dir, by repository path',
  env: 'under PINWATCH_CACHE_DIR',
};

/** Why caching is off this run, or undefined when it is on. */
export type CacheOff = '--no-cache' | 'PINWATCH_NO_CACHE' | undefined;

const entries = (n: number) => `${n} ${n === 1 ? 'entry' : 'entries'}`;

const NO_FOLDER = 'no cache folder is known for this repository: it is not in a git repository, and none of PINWATCH_CACHE_DIR, XDG_CACHE_HOME, HOME is set';

/** The compile cache as `cache info` shows it (src/cli/compile-cache.ts): its folder and what it holds, or why there is none. */
export interface CompileCacheShown {
  dir?: string;
  off?: string;
  entries: number;
  bytes: number;
}

const compileLine = (c: CompileCacheShown) =>
  c.dir ? `compile: ${c.dir}: ${entries(c.entries)}, ${formatBytes(c.bytes)} (V8's bytecode of pinwatch's own code, for every repository; cache clear leaves it)` : `compile: off (${c.off ?? 'no folder'})`;

/** The text of `cache info` (paths come from the environment: passed through terminalSafe). */
export function formatCacheInfoText(info: CacheInfo, off: CacheOff, compile?: CompileCacheShown): string {
  if (!info.dir) return terminalSafe(`${NO_FOLDER}; nothing is cached\n${compile ? `${compileLine(compile)}\n` : ''}`);
  const lines = [
    `cache:   ${info.dir} (${WHERE[info.source ?? 'env']})`,
    `caching: ${off ? `off (${off})` : 'on'}`,
    `version: ${info.version} (this pinwatch's folder)`,
    `holds:   ${entries(info.entries)}, ${formatBytes(info.bytes)}${info.versions.length > 1 ? ` in ${info.versions.length} version folders` : ''}`,
  ];
  for (const v of info.versions) lines.push(`  ${v.name}  ${entries(v.entries)}  ${formatBytes(v.bytes)}${v.current ? '  (this version)' : '  (another version: ignored; cache clear removes it)'}`);
  if (compile) lines.push(compileLine(compile));
  return terminalSafe(`${lines.join('\n')}\n`);
}

export function formatCacheClearText(info: CacheInfo): string {
  if (!info.dir) return `${NO_FOLDER}; nothing to remove\n`;
  if (info.versions.length === 0 && info.bytes === 0) return terminalSafe(`nothing to remove: ${info.dir} holds no cache\n`);
  const versions = info.versions.length === 1 ? '1 version folder' : `${info.versions.length} version folders`;
  return terminalSafe(`removed ${info.dir}: ${entries(info.entries)}, ${formatBytes(info.bytes)} (${versions})\n`);
}

/** The JSON of both subcommands (schemas/cache-output.schema.json): the folder and what it holds (info) or held (clear). */
export function formatCacheJson(action: 'info' | 'clear', info: CacheInfo, off: CacheOff, compile?: CompileCacheShown): string {
  const doc = {
    version: 1,
    action,
    dir: info.dir ?? null,
    source: info.source ?? null,
    enabled: off === undefined,
    ...(off ? { disabledBy: off } : {}),
    versionFolder: info.version,
    entries: info.entries,
    bytes: info.bytes,
    versions: info.versions,
    ...(action === 'clear' ? { removed: info.dir !== undefined && (info.versions.length > 0 || info.bytes > 0) } : {}),
    ...(compile ? { compileCache: { dir: compile.dir ?? null, ...(compile.off ? { off: compile.off } : {}), entries: compile.entries, bytes: compile.bytes } } : {}),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
