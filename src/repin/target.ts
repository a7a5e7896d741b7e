/**
 * The ref to repin to: a reference (same repository; a missing digest is resolved
 * through the registry) or a tag (resolved through the registry); the CLI's
 * `--to REF` and `--to-tag TAG`.
 * IMAGE may be a repository, a full ref (its tag/digest are ignored), an
 * `images:` key, or the last path component of a pinned repository.
 */
import type { Config } from '../config/types.js';
import { PinwatchError } from '../errors.js';
import { pinnedImages } from '../images/images.js';
import { resolveImage } from '../images/resolve.js';
import { parseReference } from '../reference/index.js';
import type { Pin } from '../model/index.js';
import type { RegistryClient } from '../registry/index.js';
import type { RepinTarget } from './types.js';

/**
 * The repository IMAGE names, by the rule every command shares
 * (src/images/resolve.ts), over every repository pinned in the tree: repin
 * moves third-party pins too. An unknown or ambiguous IMAGE throws
 * `image-unknown` / `image-ambiguous`.
 */
export function resolveRepository(image: string, config: Config, pins: readonly Pick<Pin, 'ref'>[] = []): string {
  return resolveImage(image, pinnedImages(config, pins), { noneHint: 'no image is pinned in this tree' }).repository;
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
    throw new PinwatchError('repin-target-missing', 'repin needs exactly one target, a reference (e.g. ghcr.io/acme/app:v1.2.0@sha256:…) or a tag');
  }
  let tag: string | undefined;
  let digest: string | undefined;
  if (req.to !== undefined) {
    let ref;
    try {
      ref = parseReference(req.to);
    } catch (e) {
      throw new PinwatchError('repin-target-invalid', `the target must be an image reference like ${req.repository}:v1.2.0@sha256:<64 hex>; ${(e as Error).message}`);
    }
    if (ref.name !== req.repository) {
      throw new PinwatchError('repin-target-repository', `the target names ${ref.name}, but the pins being moved are of ${req.repository}; repin changes tag and digest only`);
    }
    tag = ref.tag;
    digest = ref.digest;
  } else {
    tag = req.toTag;
  }
  if (digest !== undefined) return withTag({ repository: req.repository, digest, resolvedBy: 'given' }, tag);
  if (!req.client) throw new PinwatchError('repin-target-unresolvable', `the target ${req.to ?? req.toTag} has no digest and no registry is available to resolve it`);
  const [domain, ...rest] = req.repository.split('/');
  const manifest = await req.client().getManifest({ domain: domain!, path: rest.join('/') }, tag ?? 'latest');
  return withTag({ repository: req.repository, digest: manifest.digest, resolvedBy: 'registry' }, tag);
}

function withTag(t: RepinTarget, tag: string | undefined): RepinTarget {
  if (tag !== undefined) t.tag = tag;
  return t;
}
