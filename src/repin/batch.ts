/**
 * `repin --from-build-metadata FILE…`: every image a build pushed (buildx, bake
 * or ko metadata, ./build-metadata.ts) repinned in one run, one repin after the
 * other on the same tree. An image that cannot be repinned (not pinned here,
 * built at two digests, a blocking problem) is listed with its reason; the
 * others still move.
 */
import { isPinwatchError } from '../errors.js';
import type { BuildMetadata, BuiltImage } from './build-metadata.js';
import { mergeBuiltImages } from './build-metadata.js';
import { repin, repinExitCode, type RepinOptions } from './repo.js';
import type { RepinResult } from './types.js';

export interface BatchRepinResult {
  files: string[];
  images: BuiltImage[];
  results: RepinResult[];
  /** Images that were not repinned, and metadata entries that named no image: each with why. */
  skipped: { repository?: string; source?: string; reason: string }[];
}

export async function repinBuilt(metadata: { file: string; parsed: BuildMetadata }[], opts: Omit<RepinOptions, 'image' | 'to' | 'toTag'>): Promise<BatchRepinResult> {
  const { images, conflicts } = mergeBuiltImages(metadata.map((m) => m.parsed));
  const skipped: BatchRepinResult['skipped'] = [
    ...metadata.flatMap((m) => m.parsed.unreadable.map((u) => ({ source: u.source, reason: u.reason }))),
    ...conflicts.map((c) => ({ repository: c.repository, reason: c.reason })),
  ];
  const results: RepinResult[] = [];
  for (const img of images) {
    try {
      results.push(await repin({ ...opts, image: img.repository, to: `${img.repository}${img.tag ? `:${img.tag}` : ''}@${img.digest}` }));
    } catch (e) {
      if (!isPinwatchError(e)) throw e;
      skipped.push({ repository: img.repository, source: img.source, reason: `[${e.code}] ${e.message.split('\n')[0]}` });
    }
  }
  return { files: metadata.map((m) => m.file), images, results, skipped };
}

/** 0 when every built image moved cleanly and nothing was skipped; 1 otherwise. */
export function batchRepinExitCode(r: BatchRepinResult): number {
  if (r.skipped.length > 0) return 1;
  return r.results.some((x) => repinExitCode(x) !== 0) ? 1 : 0;
}
