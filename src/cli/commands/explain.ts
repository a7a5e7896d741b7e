/** What `pinwatch explain` does when it runs (declared in ../program.ts, loaded only when it runs). */
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { emit } from '../output.js';
import { loadCommandConfig } from '../config.js';
import { registryOptions, type RegistryFlags } from '../flags/registry.js';
import { explainImage } from '../../explain/index.js';
import { formatExplainJson } from '../../report/explain-json.js';
import { formatExplainText } from '../../report/explain-text.js';
import { COMMAND_FORMATS } from '../formats.js';

const FORMATS = COMMAND_FORMATS.explain;

export interface ExplainFlags extends RegistryFlags {
  registry?: boolean;
}

export async function runExplain(ctx: CommandContext, image: string, flags: ExplainFlags): Promise<number> {
  const format = pickFormat(ctx, FORMATS, 'text');
  const { repo } = ctx.global;
  const config = await loadCommandConfig(ctx);
  const e = await explainImage(repo, config, image, flags.registry ? { registry: await registryOptions(config, ctx.io.env, flags) } : {});
  emit(ctx, format === 'json' ? formatExplainJson(e) : formatExplainText(e));
  return 0;
}
