/**
 * What a build just pushed, read from the files build tools write: docker buildx
 * `--metadata-file` (`image.name`: comma-separated refs, `containerimage.digest`),
 * docker buildx bake `--metadata-file` (one such object per target) and ko's
 * `--image-refs` (one `repo[:tag]@sha256:…` per line). `repin
 * --from-build-metadata FILE…` moves every pin to what these name, in one run.
 * Pure: text in, images out; anything that cannot be read is a reason, never a skip.
 */
import { isPinwatchError, PinwatchError } from '../errors.js';
import { parseReference } from '../reference/index.js';

export interface BuiltImage {
  repository: string;
  tag?: string;
  digest: string;
  /** `file`, `file#target` (bake) or `file:line` (ko). */
  source: string;
}

export interface BuildMetadata {
  images: BuiltImage[];
  /** Entries that named no pushed image (no digest, no name): each with why. */
  unreadable: { source: string; reason: string }[];
  format: 'buildx' | 'bake' | 'ko';
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

function invalid(file: string, why: string): PinwatchError {
  return new PinwatchError(
    'build-metadata-invalid',
    `${why}; expected docker buildx --metadata-file JSON ({"image.name": "REPO:TAG", "containerimage.digest": "sha256:…"}), bake's (one such object per target) or ko --image-refs (REPO@sha256:… per line)`,
    { file },
  );
}

/** The images of one buildx metadata object (several `image.name` refs share its digest). */
function fromBuildx(entry: Record<string, unknown>, source: string, out: BuildMetadata): void {
  const digest = entry['containerimage.digest'];
  const names = entry['image.name'];
  if (typeof digest !== 'string' || !DIGEST.test(digest)) {
    out.unreadable.push({ source, reason: `no "containerimage.digest" of the form sha256:<64 hex> (was the image pushed? --push or --output type=registry)` });
    return;
  }
  if (typeof names !== 'string' || names.trim() === '') {
    out.unreadable.push({ source, reason: 'no "image.name" (build with --tag, or tags: in bake)' });
    return;
  }
  const byRepo = new Map<string, BuiltImage>();
  for (const name of names.split(',').map((n) => n.trim()).filter(Boolean)) {
    let ref;
    try {
      ref = parseReference(name);
    } catch (e) {
      if (!isPinwatchError(e)) throw e;
      out.unreadable.push({ source, reason: `image.name ${JSON.stringify(name)} is not an image reference: ${e.message}` });
      continue;
    }
    const seen = byRepo.get(ref.name);
    // one repository pushed under several tags: a version tag over latest
    if (!seen || (seen.tag === 'latest' && ref.tag && ref.tag !== 'latest')) {
      byRepo.set(ref.name, { repository: ref.name, ...(ref.tag ? { tag: ref.tag } : {}), digest, source });
    }
  }
  out.images.push(...byRepo.values());
}

function fromKo(text: string, file: string): BuildMetadata {
  const out: BuildMetadata = { images: [], unreadable: [], format: 'ko' };
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    const source = `${file}:${i + 1}`;
    try {
      const ref = parseReference(line);
      if (!ref.digest) out.unreadable.push({ source, reason: `${JSON.stringify(line)} has no @sha256 digest (ko --image-refs writes REPO@sha256:…)` });
      else out.images.push({ repository: ref.name, ...(ref.tag ? { tag: ref.tag } : {}), digest: ref.digest, source });
    } catch (e) {
      if (!isPinwatchError(e)) throw e;
      throw invalid(file, `line ${i + 1} is neither JSON nor an image reference: ${e.message}`);
    }
  });
  return out;
}

/** Read one metadata file's text; `file` names it in sources and errors. */
export function parseBuildMetadata(text: string, file: string): BuildMetadata {
  const trimmed = text.trim();
  if (trimmed === '') throw invalid(file, 'the file is empty');
  if (!trimmed.startsWith('{')) return fromKo(text, file);
  let data: unknown;
  try {
    data = JSON.parse(trimmed);
  } catch (e) {
    throw invalid(file, `not valid JSON (${(e as Error).message.split('\n')[0]})`);
  }
  const obj = data as Record<string, unknown>;
  if ('containerimage.digest' in obj || 'image.name' in obj) {
    const out: BuildMetadata = { images: [], unreadable: [], format: 'buildx' };
    fromBuildx(obj, file, out);
    return out;
  }
  const out: BuildMetadata = { images: [], unreadable: [], format: 'bake' };
  for (const [target, entry] of Object.entries(obj)) {
    // bake also records the build's own settings (buildx.build.ref, buildx.build.provenance, …)
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
      if (!target.startsWith('buildx.')) out.unreadable.push({ source: `${file}#${target}`, reason: 'not an object of build results' });
      continue;
    }
    if (target.startsWith('buildx.')) continue;
    fromBuildx(entry as Record<string, unknown>, `${file}#${target}`, out);
  }
  if (out.images.length === 0 && out.unreadable.length === 0) throw invalid(file, 'a JSON object with no build results in it');
  return out;
}

/**
 * The images of several files, each repository once. The same repository at two
 * digests (built twice) cannot be repinned to both: it is a reason, not a pick.
 */
export function mergeBuiltImages(all: readonly BuildMetadata[]): { images: BuiltImage[]; conflicts: { repository: string; reason: string }[] } {
  const byRepo = new Map<string, BuiltImage[]>();
  for (const m of all) for (const img of m.images) byRepo.set(img.repository, [...(byRepo.get(img.repository) ?? []), img]);
  const images: BuiltImage[] = [];
  const conflicts: { repository: string; reason: string }[] = [];
  for (const [repository, list] of byRepo) {
    const digests = [...new Set(list.map((i) => i.digest))];
    if (digests.length > 1) {
      conflicts.push({ repository, reason: `built at ${digests.length} digests (${list.map((i) => `${i.digest.slice(0, 19)}… in ${i.source}`).join(', ')}); repin it by hand with --to` });
      continue;
    }
    images.push(list.find((i) => i.tag && i.tag !== 'latest') ?? list[0]!);
  }
  return { images: images.sort((a, b) => a.repository.localeCompare(b.repository)), conflicts };
}
