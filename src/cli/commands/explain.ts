/** `pinwatch explain IMAGE`: pins, producers, recipe, build inputs, provenance steps and unshipped commits of one image. */
import type { CommandRegistrar } from '../main.js';
import { addRegistryFlags } from '../registry-flags.js';
import { emit, pickFormat, type CommandContext } from '../context.js';
import { loadCommandConfig } from '../config.js';
import { registryOptions } from '../../stale/registry-options.js';
import type { RegistryFlags } from '../../registry/options.js';
import { explainImage } from '../../explain/explain.js';
import { formatExplainJson } from '../../report/explain-json.js';
import { formatExplainText } from '../../report/explain-text.js';

const FORMATS = ['text', 'json'] as const;

interface ExplainFlags extends RegistryFlags {
  registry?: boolean;
}

async function runExplain(ctx: CommandContext, image: string, flags: ExplainFlags): Promise<number> {
  const format = pickFormat(ctx, FORMATS, 'text');
  const { repo } = ctx.global;
  const config = loadCommandConfig(ctx);
  const e = await explainImage(repo, config, image, flags.registry ? { registry: registryOptions(config, ctx.io.env, flags) } : {});
  emit(ctx, format === 'json' ? formatExplainJson(e) : formatExplainText(e));
  return 0;
}

export const registerExplain: CommandRegistrar = (program, run) => {
  const cmd = program
    .command('explain')
    .description('show how pinwatch sees one image: pins, producer, build recipe, build inputs, provenance steps, unshipped commits')
    .argument('<image>', 'repository, or its last path component, or the pinwatch.yaml images key')
    .option('--registry', 'ask the registry for the image revision label first (network)');
  addRegistryFlags(cmd).action(run(async (ctx: CommandContext, image: string, flags: ExplainFlags) => runExplain(ctx, image, flags)));
};
