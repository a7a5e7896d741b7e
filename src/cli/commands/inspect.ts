/** What `pinwatch inspect` does when it runs (declared in ../program.ts, loaded only when it runs). */
import { loadCommandConfig } from '../config.js';
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { emit } from '../output.js';
import { registryProvenance } from '../../registry/provenance.js';
import { formatInspectJson } from '../../report/inspect-json.js';
import { formatInspectText } from '../../report/inspect-text.js';
import { registryClientOptions, type RegistryFlags } from '../flags/registry.js';
import { COMMAND_FORMATS } from '../formats.js';

const FORMATS = COMMAND_FORMATS.inspect;

export async function runInspect(ctx: CommandContext, ref: string, flags: RegistryFlags): Promise<number> {
  const format = pickFormat(ctx, FORMATS, 'text');
  const config = await loadCommandConfig(ctx);
  const opts = registryClientOptions(ctx.io.env, flags, config.insecureRegistries);
  const p = await registryProvenance(ref, opts);
  emit(ctx, format === 'json' ? formatInspectJson(p) : formatInspectText(p));
  return 0;
}
