/** What `pinwatch cache info|clear` does when it runs (declared in ../program.ts, loaded only when it runs). */
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { emit } from '../output.js';
import { COMMAND_FORMATS } from '../formats.js';
import { cacheInfo, clearCache } from '../../cache/index.js';
import { formatCacheClearText, formatCacheInfoText, formatCacheJson, type CacheOff } from '../../report/cache-text.js';

export type CacheAction = 'info' | 'clear';

export async function runCache(ctx: CommandContext, action: CacheAction): Promise<number> {
  const format = pickFormat(ctx, COMMAND_FORMATS.cache, 'text');
  const where = { env: ctx.io.env };
  const off: CacheOff = ctx.global.noCache;
  const info = action === 'clear' ? clearCache(ctx.global.repo, where) : cacheInfo(ctx.global.repo, where);
  if (format === 'json') emit(ctx, formatCacheJson(action, info, off));
  else emit(ctx, action === 'clear' ? formatCacheClearText(info) : formatCacheInfoText(info, off));
  return 0;
}
