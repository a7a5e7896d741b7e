/**
 * The ref to repin to: `--to REF` (same repository; a missing digest is resolved
 * through the registry) or `--to-tag TAG` (resolved through the registry).
 * IMAGE may be a repository, a full ref (its tag/digest are ignored), an
 * `images:` key, or the last path component of a pinned repository.
 */
import type { Config } from '../config/types.js';
import { isPinwatchError, PinwatchError } from '../errors.js';
import { pinnedImages } from '../images/images.js';
import { resolveImage } from '../images/resolve.js';
import { canonicalRepository } from '../config/aliases.js';
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
  // a pin under an `aliases` prefix is a pin of the canonical image: one image, named by either repository
  const canonical = pins.map((p) => ({ ref: { ...p.ref, name: p.ref.name && canonicalRepository(p.ref.name, config.aliases) } }));
  return resolveImage(image, pinnedImages(config, canonical), { noneHint: 'the tree holds no image pin at all', aliases: config.aliases }).repository;
}

export interface TargetRequest {
  repository: string;
  to?: string;
  toTag?: string;
  /** Needed only when the digest must be resolved. */
  client?: () => RegistryClient;
  /** pinwatch.yaml `aliases`: `--to` may name the image under an alias prefix (the same digests). */
  aliases?: Readonly<Record<string, string>>;
}

export async function resolveTarget(req: TargetRequest): Promise<RepinTarget> {
  const example = `--to ${req.repository}:v1.2.0@sha256:<64 hex> or --to-tag v1.2.0`;
  if (req.to === undefined && req.toTag === undefined) throw new PinwatchError('missing-option', `repin needs --to REF or --to-tag TAG, like ${example}`);
  if (req.to !== undefined && req.toTag !== undefined) {
    throw new PinwatchError('conflicting-options', `repin takes one of --to and --to-tag, not both; saw --to "${req.to}" and --to-tag "${req.toTag}"`);
  }
  let tag: string | undefined;
  let digest: string | undefined;
  if (req.to !== undefined) {
    let ref;
    try {
      ref = parseReference(req.to);
    } catch (e) {
      if (!isPinwatchError(e)) throw e;
      throw new PinwatchError(e.code, `--to: ${e.message}; expected an image reference like ${req.repository}:v1.2.0@sha256:<64 hex>`, {}, { cause: e });
    }
    if (ref.name !== req.repository && canonicalRepository(ref.name, req.aliases ?? {}) !== req.repository) {
      throw new PinwatchError(
        'repin-repository-mismatch',
        `--to "${req.to}" names ${ref.name}, but the pins being moved are of ${req.repository}; repin changes tag and digest only (like --to ${req.repository}:v1.2.0)`,
      );
    }
    tag = ref.tag;
    digest = ref.digest;
  } else {
    tag = req.toTag;
  }
  if (digest !== undefined) return withTag({ repository: req.repository, digest, resolvedBy: 'given' }, tag);
  if (!req.client) {
    const given = req.to !== undefined ? `--to "${req.to}"` : `--to-tag "${req.toTag}"`;
    throw new PinwatchError('repin-digest-unresolved', `${given} has no digest and no registry is available to resolve it; give the digest, like --to ${req.repository}:v1.2.0@sha256:<64 hex>`);
  }
  const [domain, ...rest] = req.repository.split('/');
  const manifest = await req.client().getManifest({ domain: domain!, path: rest.join('/') }, tag ?? 'latest');
  return withTag({ repository: req.repository, digest: manifest.digest, resolvedBy: 'registry' }, tag);
}

function withTag(t: RepinTarget, tag: string | undefined): RepinTarget {
  if (tag !== undefined) t.tag = tag;
  return t;
}
