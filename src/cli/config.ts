/** Load the config for a command: `--config` is relative to the working directory, the default lives at the repo root. */
import { resolve } from 'node:path';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/types.js';
import type { CommandContext } from './context.js';
import { firstPartyFlag } from './flags/global.js';

export function loadCommandConfig(ctx: CommandContext): Config {
  const { repo, config } = ctx.global;
  const firstParty = firstPartyFlag(ctx.global.firstParty);
  return loadConfig(repo, { configPath: config === undefined ? undefined : resolve(ctx.io.cwd, config), firstParty });
}
