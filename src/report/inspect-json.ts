/** `pinwatch inspect --format json`: the RegistryProvenance object; absent fields are null. */
import type { RegistryProvenance } from '../registry/provenance.js';

export function formatInspectJson(p: RegistryProvenance): string {
  const body = {
    version: 1,
    ref: p.ref,
    digest: p.digest,
    mediaType: p.mediaType,
    platforms: p.platforms,
    commit: p.commit ?? null,
    commitFrom: p.commitFrom ?? null,
    source: p.source ?? null,
    created: p.created ?? null,
    labels: p.labels,
    reason: p.reason ?? null,
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
