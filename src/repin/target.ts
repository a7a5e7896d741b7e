/**
 * The ref to repin to: `--to REF` (same repository; a missing digest is resolved
 * through the registry) or `--to-tag TAG` (resolved through the registry).
 * IMAGE may be a repository, a full ref (its tag/digest are ignored), or the
 * short name of a configured image.
 */
import type { Config } from '../config/types.js';
import { PinwatchError } from '../errors.js';
import { hasExplicitDomain, parseReference, tryParseReference } from '../reference/index.js';
import type { Pin } from '../model/index.js';
import type { RegistryClient } from '../registry/index.js';
import type { RepinTarget } from './types.js';

/**
 * The repository IMAGE names: a configured `images:` key, a repository or ref with
 * its registry (`ghcr.io/acme/app`), or the last path component of a repository
 * pinned in the tree (`app`), as stale and explain accept it.
 */
export function resolveRepository(image: string, config: Config, pins: readonly Pick<Pin, 'ref'>[] = []): string {
  const configured = config.images[image]?.repository;
  if (configured !== undefined || hasExplicitDomain(image)) {
    try {
      return parseReference(configured ?? image).name;
    } catch (e) {
      throw new PinwatchError('usage', `IMAGE must be a repository like ghcr.io/acme/app or a configured image name; saw "${image}" (${(e as Error).message})`);
    }
  }
  const pinned = [...new Set(pins.map((p) => p.ref.name).filter((n) => n !== ''))].sort();
  const byLastComponent = pinned.filter((n) => n.slice(n.lastIndexOf('/') + 1) === image || n === image);
  if (byLastComponent.length === 1) return byLastComponent[0]!;
  if (byLastComponent.length > 1) {
    throw new PinwatchError('usage', `IMAGE "${image}" names ${byLastComponent.length} pinned repositories (${byLastComponent.join(', ')}); give the full repository`);
  }
  const parsed = tryParseReference(image);
  if (parsed && pinned.includes(parsed.name)) return parsed.name;
  throw new PinwatchError('usage', `no pin in this tree is of an image "${image}"; give a pinned repository (like ghcr.io/acme/app) or its last path component, or an images: key of pinwatch.yaml`);
}

export interface TargetRequest {
  repository: string;
  to?: string;
  toTag?: string;
  /** Needed only when the digest must be resolved. */
  client?: () => RegistryClient;
}

export async function resolveTarget(req: TargetRequest): Promise<RepinTarget> {
  if ((req.to === undefined) === (req.toTag === undefined)) {
    throw new PinwatchError('usage', 'repin needs exactly one of --to REF (e.g. ghcr.io/acme/app:v1.2.0@sha256:…) or --to-tag TAG');
  }
  let tag: string | undefined;
  let digest: string | undefined;
  if (req.to !== undefined) {
    let ref;
    try {
      ref = parseReference(req.to);
    } catch (e) {
      throw new PinwatchError('usage', `--to must be an image reference like ${req.repository}:v1.2.0@sha256:<64 hex>; ${(e as Error).message}`);
    }
    if (ref.name !== req.repository) {
      throw new PinwatchError('usage', `--to names ${ref.name}, but the pins being moved are of ${req.repository}; repin changes tag and digest only`);
    }
    tag = ref.tag;
    digest = ref.digest;
  } else {
    tag = req.toTag;
  }
  if (digest !== undefined) return withTag({ repository: req.repository, digest, resolvedBy: 'given' }, tag);
  if (!req.client) throw new PinwatchError('usage', `--to ${req.to ?? req.toTag} has no digest and no registry is available to resolve it`);
  const [domain, ...rest] = req.repository.split('/');
  const manifest = await req.client().getManifest({ domain: domain!, path: rest.join('/') }, tag ?? 'latest');
  return withTag({ repository: req.repository, digest: manifest.digest, resolvedBy: 'registry' }, tag);
}

function withTag(t: RepinTarget, tag: string | undefined): RepinTarget {
  if (tag !== undefined) t.tag = tag;
  return t;
}
