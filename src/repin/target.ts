/**
 * The ref to repin to: `--to REF` (same repository; a missing digest is resolved
 * through the registry) or `--to-tag TAG` (resolved through the registry).
 * IMAGE may be a repository, a full ref (its tag/digest are ignored), or the
 * short name of a configured image.
 */
import type { Config } from '../config/types.js';
import { PinwatchError } from '../errors.js';
import { parseReference } from '../reference/index.js';
import type { RegistryClient } from '../registry/index.js';
import type { RepinTarget } from './types.js';

export function resolveRepository(image: string, config: Config): string {
  const configured = config.images[image]?.repository;
  const text = configured ?? image;
  try {
    return parseReference(text).name;
  } catch (e) {
    throw new PinwatchError('usage', `IMAGE must be a repository like ghcr.io/acme/app or a configured image name; saw "${image}" (${(e as Error).message})`);
  }
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
