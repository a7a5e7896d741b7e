/**
 * Provenance from the registry: which commit an image was built from, read from
 * the image itself. Resolves an index to its platform manifests, reads config
 * labels (`org.opencontainers.image.revision`, `.source`, `.created`), manifest
 * and index annotations, and a BuildKit provenance attestation when present.
 * This is the strongest provenance method; `stale` calls it for `--registry`.
 */
import { parseReference } from '../reference/index.js';
import { commitFromStatement } from './attestation.js';
import type { ManifestResult, RegistryClientOptions, RepositoryAddress } from './client.js';
import { RegistryClient } from './client.js';
import { RegistryError } from './errors.js';
import { IN_TOTO, isIndexType } from './media-types.js';

export const REVISION = 'org.opencontainers.image.revision';
export const SOURCE = 'org.opencontainers.image.source';
export const CREATED = 'org.opencontainers.image.created';

export type CommitOrigin = 'label' | 'annotation' | 'attestation';

export interface RegistryProvenance {
  /** The full reference asked about, normalised. */
  ref: string;
  /** Digest of what the ref names (the index digest for a multi-platform image). */
  digest: string;
  mediaType: string;
  /** The git commit the image was built from, when the image says so. */
  commit?: string;
  /** Which part of the image named the commit. */
  commitFrom?: CommitOrigin;
  source?: string;
  created?: string;
  /** `os/arch[/variant]` per platform manifest; attestation entries are not platforms. */
  platforms: string[];
  /** Config labels merged with manifest/index annotations (labels win). */
  labels: Record<string, string>;
  /** Why no commit is known, or a disagreement between sources. */
  reason?: string;
}

export interface RegistryProvenanceOptions extends RegistryClientOptions {
  /** Reuse a client (shares the token cache, concurrency limit and digest cache). */
  client?: RegistryClient;
}

interface Descriptor {
  mediaType?: string;
  digest?: string;
  platform?: { os?: string; architecture?: string; variant?: string };
  annotations?: Record<string, string>;
}

/**
 * Resolve `ref` (tag or digest) and read its provenance. Throws RegistryError when the
 * registry cannot answer (unreachable, unauthorized, unknown manifest, digest mismatch);
 * returns `reason` (and no `commit`) when the image exists but names no commit.
 */
export async function registryProvenance(ref: string, opts: RegistryProvenanceOptions = {}): Promise<RegistryProvenance> {
  const parsed = parseReference(ref); // an InvalidReferenceError (`invalid-ref`) quotes ref itself
  const client = opts.client ?? new RegistryClient(opts);
  const repo: RepositoryAddress = { domain: parsed.domain, path: parsed.path };
  const top = await client.getManifest(repo, parsed.digest ?? parsed.tag ?? 'latest');
  if (parsed.digest && top.digest !== parsed.digest) {
    throw new RegistryError('digest-mismatch', `"${ref}" names digest ${parsed.digest}, but the registry answered with ${top.digest}; refusing it`);
  }
  const labels: Record<string, string> = {};
  const platforms: string[] = [];
  const commits: { commit: string; from: CommitOrigin; detail: string }[] = [];
  let source: string | undefined;
  let created: string | undefined;
  const annotate = (a: Record<string, string> | undefined, where: string) => {
    for (const [k, v] of Object.entries(a ?? {})) if (typeof v === 'string' && !(k in labels)) labels[k] = v;
    if (a?.[REVISION]) commits.push({ commit: a[REVISION], from: 'annotation', detail: `${where} annotation` });
  };

  let images: ManifestResult[] = [];
  if (isIndexType(top.mediaType)) {
    const entries = (top.json.manifests as Descriptor[] | undefined) ?? [];
    const attestations = entries.filter((d) => d.annotations?.['vnd.docker.reference.type'] === 'attestation-manifest');
    const platformEntries = entries.filter((d) => !attestations.includes(d) && d.digest);
    for (const d of platformEntries) platforms.push(platformOf(d.platform));
    images = await Promise.all(platformEntries.map((d) => client.getManifest(repo, d.digest!)));
    for (const a of attestations) {
      const found = await readAttestation(client, repo, a.digest!);
      if (found) {
        commits.push({ commit: found.commit, from: 'attestation', detail: `provenance attestation (${found.from})` });
        source ??= found.source;
      }
    }
  } else {
    images = [top];
  }
  for (const image of images) {
    const cfgDesc = image.json.config as Descriptor | undefined;
    if (!cfgDesc?.digest) continue;
    const config = (await client.getJsonBlob(repo, cfgDesc.digest)) as ImageConfig;
    if (!isIndexType(top.mediaType)) platforms.push(platformOf(config));
    const l = config.config?.Labels ?? {};
    for (const [k, v] of Object.entries(l)) if (!(k in labels)) labels[k] = v;
    if (l[REVISION]) commits.unshift({ commit: l[REVISION], from: 'label', detail: `config label of ${image.digest}` });
    created ??= l[CREATED] ?? config.created;
  }
  annotate(top.json.annotations as Record<string, string> | undefined, isIndexType(top.mediaType) ? 'index' : 'manifest');
  for (const image of images) if (image !== top) annotate(image.json.annotations as Record<string, string> | undefined, 'manifest');
  source ??= labels[SOURCE];

  const result: RegistryProvenance = {
    ref: `${parsed.name}${parsed.tag ? `:${parsed.tag}` : ''}${parsed.digest ? `@${parsed.digest}` : ''}`,
    digest: top.digest,
    mediaType: top.mediaType,
    platforms: [...new Set(platforms)],
    labels,
  };
  if (source) result.source = source;
  if (created) result.created = created;
  const ordered = [...commits.filter((c) => c.from === 'label'), ...commits.filter((c) => c.from === 'annotation'), ...commits.filter((c) => c.from === 'attestation')];
  const first = ordered[0];
  if (first) {
    result.commit = first.commit;
    result.commitFrom = first.from;
    const others = [...new Set(ordered.filter((c) => c.commit !== first.commit).map((c) => `${c.detail} says ${c.commit}`))];
    if (others.length) result.reason = `${first.detail} says ${first.commit}, but ${others.join('; ')}`;
  } else {
    result.reason = `${result.ref} (${top.digest}) has no ${REVISION} label or annotation and no provenance attestation naming a git commit`;
  }
  return result;
}

interface ImageConfig {
  architecture?: string;
  os?: string;
  variant?: string;
  created?: string;
  config?: { Labels?: Record<string, string> | null };
}

function platformOf(p: { os?: string; architecture?: string; variant?: string } | undefined): string {
  if (!p?.os && !p?.architecture) return 'unknown';
  return [p.os ?? 'unknown', p.architecture ?? 'unknown', p.variant].filter(Boolean).join('/');
}

async function readAttestation(client: RegistryClient, repo: RepositoryAddress, digest: string) {
  const manifest = await client.getManifest(repo, digest);
  const layers = (manifest.json.layers as Descriptor[] | undefined) ?? [];
  for (const layer of layers) {
    const predicate = layer.annotations?.['in-toto.io/predicate-type'] ?? '';
    if (layer.mediaType !== IN_TOTO || !layer.digest || (predicate && !predicate.includes('slsa.dev/provenance'))) continue;
    const found = commitFromStatement(await client.getJsonBlob(repo, layer.digest));
    if (found) return found;
  }
  return undefined;
}
