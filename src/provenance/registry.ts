/**
 * Registry provenance: the image's `org.opencontainers.image.revision` label,
 * annotation or attestation (read by `src/registry/provenance.ts`) names the
 * build commit. Only run when asked (`--registry`): it needs the network.
 */
import { formatReference } from '../reference/index.js';
import type { RegistryProvenanceOptions } from '../registry/provenance.js';
import type { ImageSubject, ProvenanceSource, ProvenanceStep } from './types.js';

/** What this seam needs from a registry reader; `registryProvenance` satisfies it. */
export type RegistryProvenanceFn = (
  ref: string,
  opts: RegistryProvenanceOptions,
) => Promise<{ commit?: string; source?: string; created?: string; reason?: string; commitFrom?: string }>;

/** How to ask the registry: the reader (default `registryProvenance`) and its options (a shared client). */
export interface RegistryAsk {
  fn?: RegistryProvenanceFn;
  opts?: RegistryProvenanceOptions;
}

/** The registry client is loaded on the first ask: only `--registry` runs need it. */
export const defaultRegistryProvenance: RegistryProvenanceFn = async (ref, opts) => (await import('../registry/provenance.js')).registryProvenance(ref, opts);

export function registryRef(image: ImageSubject): string {
  const name = image.repository;
  return image.digest ? formatReference({ name, digest: image.digest }) : formatReference({ name, tag: image.tags[0] });
}

export function registrySource(fn: RegistryProvenanceFn, opts: RegistryProvenanceOptions = {}): ProvenanceSource {
  return {
    method: 'registry',
    resolve: async (image): Promise<ProvenanceStep> => {
      const ref = registryRef(image);
      try {
        const r = await fn(ref, opts);
        const evidence = { ref, commit: r.commit, commitFrom: r.commitFrom, source: r.source, created: r.created };
        if (r.commit) {
          return { method: 'registry', answered: true, commit: r.commit, reason: `the registry's ${r.commitFrom ?? 'revision label'} of ${ref} names ${r.commit.slice(0, 10)}`, evidence };
        }
        return { method: 'registry', answered: false, reason: r.reason ?? `${ref} carries no revision label, annotation or attestation`, evidence };
      } catch (e) {
        return { method: 'registry', answered: false, reason: `registry lookup of ${ref} failed: ${e instanceof Error ? e.message : String(e)}` };
      }
    },
  };
}

/** A step for when the registry method is configured but not run. */
export function registryNotAsked(reason: string): ProvenanceSource {
  return { method: 'registry', resolve: async () => ({ method: 'registry', answered: false, reason }) };
}
