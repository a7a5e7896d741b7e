/** What `pinwatch repin` does when it runs (declared in ../program.ts, loaded only when it runs). */
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { emit } from '../output.js';
import { loadCommandConfig } from '../config.js';
import type { Config } from '../../config/types.js';
import { loadBuildModel, type BuildModel } from '../../producers/index.js';
import { registryClientOptions, type RegistryFlags } from '../flags/registry.js';
import { batchRepinExitCode, parseBuildMetadata, repin, repinBuilt, repinExitCode } from '../../repin/index.js';
import { PinwatchError } from '../../errors.js';
import { readRegularFile } from '../../util/safe-read.js';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Problem } from '../../model/index.js';
import { formatBatchRepinJson, formatRepinJson } from '../../report/repin-json.js';
import { formatBatchRepinText, formatRepinText } from '../../report/repin-text.js';
import { COMMAND_FORMATS } from '../formats.js';

const FORMATS = COMMAND_FORMATS.repin;

export interface RepinFlags extends RegistryFlags {
  to?: string;
  toTag?: string;
  dryRun?: boolean;
  onlyForward?: boolean;
  fromBuildMetadata?: string[];
}

/** The build model for lockstep keys; when it cannot be read, the reason is reported (never a silent skip). */
async function buildModelOrReason(root: string, config: Config): Promise<BuildModel | string> {
  try {
    return await loadBuildModel(root, config);
  } catch (e) {
    return `the build model could not be read: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
  }
}

export async function runRepin(ctx: CommandContext, image: string | undefined, flags: RepinFlags): Promise<number> {
  const format = pickFormat(ctx, FORMATS, 'text');
  if (flags.fromBuildMetadata) return runRepinFromMetadata(ctx, image, flags, format);
  if (image === undefined) throw new PinwatchError('missing-option', 'repin needs IMAGE (with --to REF or --to-tag TAG), or --from-build-metadata FILE…; e.g. pinwatch repin ghcr.io/acme/app --to ghcr.io/acme/app:v1.2.0@sha256:<64 hex>');
  const { repo } = ctx.global;
  const config = await loadCommandConfig(ctx);
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

/** `repin --from-build-metadata FILE…`: every image the files name, in one run; the files are the operator's (read from the working directory). */
async function runRepinFromMetadata(ctx: CommandContext, image: string | undefined, flags: RepinFlags, format: (typeof FORMATS)[number]): Promise<number> {
  if (image !== undefined || flags.to !== undefined || flags.toTag !== undefined) {
    throw new PinwatchError('conflicting-options', `--from-build-metadata takes the images and digests from its files; drop ${image !== undefined ? `IMAGE "${image}"` : flags.to !== undefined ? '--to' : '--to-tag'}`);
  }
  // a folder stands for every file in it (a CI job downloads one artifact per built image into one folder)
  const files = flags.fromBuildMetadata!.flatMap((f) => {
    const abs = resolve(ctx.io.cwd, f);
    if (!statSync(abs, { throwIfNoEntry: false })?.isDirectory()) return [f];
    const inside = readdirSync(abs).filter((n) => !n.startsWith('.')).sort().map((n) => join(f, n));
    if (inside.length === 0) throw new PinwatchError('build-metadata-invalid', 'the folder holds no metadata file; expected the files docker buildx/bake --metadata-file or ko --image-refs wrote', { file: f });
    return inside;
  });
  const metadata = files.map((file) => {
    const read = readRegularFile(resolve(ctx.io.cwd, file), { followSymlinks: true });
    if ('refused' in read) throw new PinwatchError('build-metadata-invalid', `cannot read it: ${read.refused.reason}`, { file });
    return { file, parsed: parseBuildMetadata(read.bytes.toString('utf8'), file) };
  });
  const { repo } = ctx.global;
  const config = await loadCommandConfig(ctx);
  const model = await buildModelOrReason(repo, config);
  const result = await repinBuilt(metadata, {
    root: repo,
    config,
    dryRun: flags.dryRun === true,
    onlyForward: flags.onlyForward === true,
    buildModel: typeof model === 'string' ? undefined : model,
    registry: registryClientOptions(ctx.io.env, flags, config.insecureRegistries),
  });
  emit(ctx, format === 'json' ? formatBatchRepinJson(result) : formatBatchRepinText(result));
  return batchRepinExitCode(result);
}
