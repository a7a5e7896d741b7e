/** `pinwatch explain IMAGE`: pins, producers, recipe, build inputs, provenance steps and unshipped commits of one image. */
import { resolve } from 'node:path';
import type { CommandRegistrar } from '../main.js';
import { emit, pickFormat, type CommandContext } from '../context.js';
import { loadConfig } from '../../config/load.js';
import { explainImage } from '../../explain/explain.js';
import { formatExplainJson } from '../../report/explain-json.js';
import { formatExplainText } from '../../report/explain-text.js';

const FORMATS = ['text', 'json'] as const;

async function runExplain(ctx: CommandContext, image: string, flags: { registry?: boolean }): Promise<number> {
  const format = pickFormat(ctx, FORMATS, 'text');
  const { repo, config: configPath, firstParty } = ctx.global;
  const config = loadConfig(repo, { configPath: configPath === undefined ? undefined : resolve(ctx.io.cwd, configPath), firstParty });
  const e = await explainImage(repo, config, image, flags.registry ? { registry: {} } : {});
  emit(ctx, format === 'json' ? formatExplainJson(e) : formatExplainText(e));
  return 0;
}

export const registerExplain: CommandRegistrar = (program, run) => {
  program
    .command('explain')
    .description('show how pinwatch sees one image: pins, producer, build recipe, build inputs, provenance steps, unshipped commits')
    .argument('<image>', 'repository, or its last path component, or the pinwatch.yaml images key')
    .option('--registry', 'ask the registry for the image revision label first (network)')
    .action(run(async (ctx: CommandContext, image: string, flags: { registry?: boolean }) => runExplain(ctx, image, flags)));
};
