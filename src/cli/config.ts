/**
 * Load the config for a command: `--config` is relative to the working directory, the default lives at the repo root.
 * `kept` (stale and check, whose reused answers read no YAML otherwise): through the cache (config/kept.ts), so such
 * a run loads no `yaml`. Every other command reads YAML anyway and loads the config as it is.
 */
import { resolve } from 'node:path';
import { cacheFor } from '../cache/index.js';
import { loadConfigKept } from '../config/kept.js';
import type { Config } from '../config/types.js';
import type { CommandContext } from './context.js';
import { firstPartyFlag } from './flags/global.js';

export async function loadCommandConfig(ctx: CommandContext, options: { kept?: boolean } = {}): Promise<Config> {
  const { repo, config } = ctx.global;
  const firstParty = firstPartyFlag(ctx.global.firstParty);
  const opts = { configPath: config === undefined ? undefined : resolve(ctx.io.cwd, config), firstParty };
  if (options.kept) return loadConfigKept(repo, opts, cacheFor(repo));
  const { loadConfig } = await import('../config/load.js');
  return loadConfig(repo, opts);
}
