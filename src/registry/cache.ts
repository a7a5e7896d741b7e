/**
 * A small on-disk cache of content-addressed bodies (manifests, config blobs,
 * attestation layers), keyed by digest. Content under a digest never changes, so
 * entries never expire; every read is re-verified against its digest and a
 * corrupt entry is dropped. Location: `cacheDir` option, else
 * `$PINWATCH_CACHE_DIR`, `$XDG_CACHE_HOME/pinwatch/registry`, `$HOME/.cache/pinwatch/registry`.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Digest } from './digest.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { Env } from './credentials.js';

export interface CachedBody {
  body: Uint8Array;
  mediaType?: string;
}

export function defaultCacheDir(env: Env): string | undefined {
  if (env.PINWATCH_CACHE_DIR) return env.PINWATCH_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'pinwatch', 'registry');
  if (env.HOME) return join(env.HOME, '.cache', 'pinwatch', 'registry');
  return undefined;
}

export class DigestCache {
  constructor(readonly dir: string | undefined) {}

  private path(digest: string): string | undefined {
    if (!this.dir || !/^sha256:[a-f0-9]{64}$/.test(digest)) return undefined;
    return join(this.dir, 'sha256', digest.slice(7));
  }

  get(digest: string): CachedBody | undefined {
    const p = this.path(digest);
    if (!p) return undefined;
    try {
      const body = new Uint8Array(readFileSync(p));
      if (sha256Digest(body) !== digest) {
        rmSync(p, { force: true });
        return undefined;
      }
      let mediaType: string | undefined;
      try {
        mediaType = readFileSync(`${p}.type`, 'utf8') || undefined;
      } catch {
        mediaType = undefined;
      }
      return { body, mediaType };
    } catch {
      return undefined;
    }
  }

  /** Store a body already verified against `digest`, atomically. Failures to write are ignored: the cache is an optimisation. */
  put(digest: string, body: Uint8Array, mediaType?: string): void {
    const p = this.path(digest);
    if (!p) return;
    try {
      mkdirSync(join(this.dir!, 'sha256'), { recursive: true });
      // The type first, the body last: a reader that finds the body finds its type too.
      if (mediaType) writeFileAtomic(`${p}.type`, mediaType);
      writeFileAtomic(p, body);
    } catch {
      /* a read-only cache directory only costs a refetch */
    }
  }
}
