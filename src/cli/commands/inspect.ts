/** `pinwatch inspect REF`: what the registry says about an image — digest, platforms, labels, build commit. */
import type { CommandRegistrar } from '../main.js';
import { addRegistryFlags } from '../registry-flags.js';
import { loadCommandConfig } from '../config.js';
import { emit, pickFormat, type CommandContext } from '../context.js';
import { registryProvenance } from '../../registry/provenance.js';
import { formatInspectJson } from '../../report/inspect-json.js';
import { formatInspectText } from '../../report/inspect-text.js';
import { registryOptionsFromFlags, type RegistryFlags } from '../../registry/options.js';

const FORMATS = ['text', 'json'] as const;

async function runInspect(ctx: CommandContext, ref: string, flags: RegistryFlags): Promise<number> {
  const format = pickFormat(ctx, FORMATS, 'text');
  const { repo } = ctx.global;
  const config = loadCommandConfig(ctx);
  const opts = registryOptionsFromFlags(ctx.io.env, flags, config.insecureRegistries);
  const p = await registryProvenance(ref, opts);
  emit(ctx, format === 'json' ? formatInspectJson(p) : formatInspectText(p));
  return 0;
}

export const registerInspect: CommandRegistrar = (program, run) => {
  const cmd = program
    .command('inspect')
    .description('show what the registry says about an image: digest, platforms, labels, and the commit it was built from')
    .argument('<ref>', 'image reference, e.g. ghcr.io/acme/app:v1.2.0 or …@sha256:…');
  addRegistryFlags(cmd).action(run(async (ctx: CommandContext, ref: string, flags: RegistryFlags) => runInspect(ctx, ref, flags)));
};
