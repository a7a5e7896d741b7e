/** What `pinwatch inspect` does when it runs (loaded on demand by ./inspect.ts). */
import { loadCommandConfig } from '../config.js';
import { emit, pickFormat, type CommandContext } from '../context.js';
import { registryProvenance } from '../../registry/provenance.js';
import { formatInspectJson } from '../../report/inspect-json.js';
import { formatInspectText } from '../../report/inspect-text.js';
import { registryOptionsFromFlags, type RegistryFlags } from '../../registry/options.js';

const FORMATS = ['text', 'json'] as const;

export async function runInspect(ctx: CommandContext, ref: string, flags: RegistryFlags): Promise<number> {
  const format = pickFormat(ctx, FORMATS, 'text');
  const config = loadCommandConfig(ctx);
  const opts = registryOptionsFromFlags(ctx.io.env, flags, config.insecureRegistries);
  const p = await registryProvenance(ref, opts);
  emit(ctx, format === 'json' ? formatInspectJson(p) : formatInspectText(p));
  return 0;
}
