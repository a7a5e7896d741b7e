/** What `pinwatch repin` does when it runs (declared in ../program.ts, loaded only when it runs). */
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { emit } from '../output.js';
import { loadCommandConfig } from '../config.js';
import type { Config } from '../../config/types.js';
import { loadBuildModel, type BuildModel } from '../../producers/index.js';
import { registryClientOptions, type RegistryFlags } from '../flags/registry.js';
import { repin, repinExitCode } from '../../repin/index.js';
import type { Problem } from '../../model/index.js';
import { formatRepinJson } from '../../report/repin-json.js';
import { formatRepinText } from '../../report/repin-text.js';
import { COMMAND_FORMATS } from '../formats.js';

const FORMATS = COMMAND_FORMATS.repin;

export interface RepinFlags extends RegistryFlags {
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

export async function runRepin(ctx: CommandContext, image: string, flags: RepinFlags): Promise<number> {
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
    registry: registryClientOptions(ctx.io.env, flags, config.insecureRegistries),
  });
  if (typeof model === 'string') {
    const note: Problem = { code: 'producers-unavailable', reason: `lockstep keys of other repositories were not looked for: ${model}`, blocking: false };
    result.problems.push(note);
  }
  emit(ctx, format === 'json' ? formatRepinJson(result) : formatRepinText(result, { diff: result.dryRun }));
  return repinExitCode(result);
}
