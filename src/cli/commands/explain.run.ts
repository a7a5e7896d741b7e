/** What `pinwatch explain` does when it runs (loaded on demand by ./explain.ts). */
import { emit, pickFormat, type CommandContext } from '../context.js';
import { loadCommandConfig } from '../config.js';
import { registryOptions } from '../../stale/registry-options.js';
import type { RegistryFlags } from '../../registry/options.js';
import { explainImage } from '../../explain/explain.js';
import { formatExplainJson } from '../../report/explain-json.js';
import { formatExplainText } from '../../report/explain-text.js';

const FORMATS = ['text', 'json'] as const;

export interface ExplainFlags extends RegistryFlags {
  registry?: boolean;
}

export async function runExplain(ctx: CommandContext, image: string, flags: ExplainFlags): Promise<number> {
  const format = pickFormat(ctx, FORMATS, 'text');
  const { repo } = ctx.global;
  const config = loadCommandConfig(ctx);
  const e = await explainImage(repo, config, image, flags.registry ? { registry: registryOptions(config, ctx.io.env, flags) } : {});
  emit(ctx, format === 'json' ? formatExplainJson(e) : formatExplainText(e));
  return 0;
}
