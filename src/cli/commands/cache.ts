/** What `pinwatch cache info|clear` does when it runs (declared in ../program.ts, loaded only when it runs). */
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { emit } from '../output.js';
import { COMMAND_FORMATS } from '../formats.js';
import { cacheInfo, clearCache } from '../../cache/index.js';
import { formatCacheClearText, formatCacheInfoText, formatCacheJson, type CacheOff, type CompileCacheShown } from '../../report/cache-text.js';
import { compileCachePlace, compileCacheUsage, usableFolder } from '../compile-cache.js';

export type CacheAction = 'info' | 'clear';

export async function runCache(ctx: CommandContext, action: CacheAction): Promise<number> {
  const format = pickFormat(ctx, COMMAND_FORMATS.cache, 'text');
  const where = { env: ctx.io.env };
  const off: CacheOff = ctx.global.noCache;
  const info = action === 'clear' ? clearCache(ctx.global.repo, where) : cacheInfo(ctx.global.repo, where);
  const compile = compileCacheShown(ctx.io.env);
  if (format === 'json') emit(ctx, formatCacheJson(action, info, off, compile));
  else emit(ctx, action === 'clear' ? formatCacheClearText(info) : formatCacheInfoText(info, off, compile));
  return 0;
}

/** The compile cache of the bin (not per repository): its folder and what it holds, or why there is none. */
function compileCacheShown(env: Readonly<Record<string, string | undefined>>): CompileCacheShown {
  const place = compileCachePlace(env);
  if (!('dir' in place)) return { off: place.off, entries: 0, bytes: 0 };
  if (!usableFolder(place.dir)) return { off: `${place.dir} is not this user's own, or others can write it`, entries: 0, bytes: 0 };
  return { dir: place.dir, ...compileCacheUsage(place.dir) };
}
