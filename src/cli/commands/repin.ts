/** `pinwatch repin IMAGE --to REF | --to-tag TAG`: move every pin of a repository, byte-minimal, then rescan. */
import type { CommandRegistrar } from '../main.js';
import { addRegistryFlags } from '../registry-flags.js';
import { emit, pickFormat, type CommandContext } from '../context.js';
import { loadCommandConfig } from '../config.js';
import type { Config } from '../../config/types.js';
import { loadBuildModel } from '../../producers/index.js';
import type { BuildModel } from '../../producers/types.js';
import { registryOptionsFromFlags, type RegistryFlags } from '../../registry/options.js';
import { repin, repinExitCode } from '../../repin/index.js';
import type { RepinProblem } from '../../repin/types.js';
import { formatRepinJson } from '../../report/repin-json.js';
import { formatRepinText } from '../../report/repin-text.js';

const FORMATS = ['text', 'json'] as const;

interface RepinFlags extends RegistryFlags {
  to?: string;
  toTag?: string;
  dryRun?: boolean;
  onlyForward?: boolean;
}

/** The build model for lockstep keys; when it cannot be read, the reason is reported (never a silent skip). */
async function buildModelOrReason(root: string, config: Config): Promise<BuildModel | string> {
  try {
    return await loadBuildModel(root, config);
  } catch (e) {
    return `the build model could not be read: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
  }
}

async function runRepin(ctx: CommandContext, image: string, flags: RepinFlags): Promise<number> {
  const format = pickFormat(ctx, FORMATS, 'text');
  const { repo } = ctx.global;
  const config = loadCommandConfig(ctx);
  const model = await buildModelOrReason(repo, config);
  const result = await repin({
    root: repo,
    config,
    image,
    to: flags.to,
    toTag: flags.toTag,
    dryRun: flags.dryRun === true,
    onlyForward: flags.onlyForward === true,
    buildModel: typeof model === 'string' ? undefined : model,
    registry: registryOptionsFromFlags(ctx.io.env, flags, config.insecureRegistries),
  });
  if (typeof model === 'string') {
    const note: RepinProblem = { code: 'producers-unavailable', reason: `lockstep keys of other repositories were not looked for: ${model}`, blocking: false };
    result.problems.push(note);
  }
  emit(ctx, format === 'json' ? formatRepinJson(result) : formatRepinText(result, { diff: result.dryRun }));
  return repinExitCode(result);
}

export const registerRepin: CommandRegistrar = (program, run) => {
  const cmd = program
    .command('repin')
    .description('rewrite every pin of IMAGE (all shapes, lockstep keys included) to a new ref with byte-minimal edits, then rescan')
    .argument('<image>', 'repository (ghcr.io/acme/app) or a configured image name')
    .option('--to <ref>', 'the new ref: REPO:TAG@DIGEST (a missing digest is resolved through the registry)')
    .option('--to-tag <tag>', 'the new tag; its digest is resolved through the registry')
    .option('--dry-run', 'print the unified diff and write nothing')
    .option('--only-forward', "refuse unless the new image's build commit descends from the pinned image's");
  addRegistryFlags(cmd).action(run(async (ctx: CommandContext, image: string, flags: RepinFlags) => runRepin(ctx, image, flags)));
};
