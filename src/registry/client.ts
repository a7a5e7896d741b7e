/**
 * The OCI distribution client pinwatch needs: ping, manifests by tag or digest
 * (HEAD and GET, full Accept list), blobs, and tag lists with `Link` pagination.
 * Every manifest and blob body is verified against its digest (a mismatch is a
 * RegistryError 'digest-mismatch'); verified bodies are cached on disk by digest.
 * Bodies are capped (body.ts): manifests at 4 MiB, JSON blobs at 16 MiB.
 * Writes (blob upload and mount, manifest PUT, image copy) live in write.ts.
 */
import type { FetchLike } from './redirect.js';
import type { BodyLimit } from './body.js';
import { MAX_JSON_BLOB_BYTES, MAX_MANIFEST_BYTES, MAX_TAG_PAGE_BYTES } from './body.js';
import { DigestCache, defaultCacheDir } from './cache.js';
import type { Env } from './credentials.js';
import { sha256Digest, verifyDigest } from './digest.js';
import { RegistryError } from './errors.js';
import { MANIFEST_ACCEPT } from './media-types.js';
import { Transport } from './transport.js';
import type { RegistryRequest, RegistryResponse } from './transport.js';

export interface RegistryClientOptions {
  /** Environment for DOCKER_CONFIG, HOME, PINWATCH_CACHE_DIR, XDG_CACHE_HOME. Default: none (no credentials, no cache). */
  env?: Env;
  /** Hosts (`host` or `host:port`) where plain HTTP is allowed besides loopback. */
  insecureRegistries?: string[];
  /** Per attempt, in ms, covering headers, redirects and the whole body (default 30000). */
  timeoutMs?: number;
  /** Retries on 429, 5xx and refused connections (default 3). */
  retries?: number;
  /** First backoff in ms, doubled per retry (default 250). */
  retryBaseMs?: number;
  /** Requests in flight at once (default 8). */
  concurrency?: number;
  /** Digest cache directory; `false` turns the cache off. Default from env (see cache.ts). */
  cacheDir?: string | false;
  fetch?: FetchLike;
  now?: () => number;
}

/** A repository on a registry: `host` as written in refs (`docker.io`, `127.0.0.1:5000`) and its path. */
export interface RepositoryAddress {
  domain: string;
  path: string;
}

export interface ManifestResult {
  digest: string;
  mediaType: string;
  body: Uint8Array;
  json: Record<string, unknown>;
}

export interface ManifestHead {
  digest?: string;
  mediaType?: string;
  size?: number;
}

export class RegistryClient {
  private readonly transport: Transport;
  private readonly cache: DigestCache;

  constructor(options: RegistryClientOptions = {}) {
    const env = options.env ?? {};
    this.transport = new Transport({
      env,
      insecureRegistries: options.insecureRegistries ?? [],
      timeoutMs: options.timeoutMs ?? 30_000,
      retries: options.retries ?? 3,
      retryBaseMs: options.retryBaseMs ?? 250,
      concurrency: options.concurrency ?? 8,
      fetch: options.fetch ?? fetch,
      now: options.now ?? Date.now,
    });
    this.cache = new DigestCache(options.cacheDir === false ? undefined : (options.cacheDir ?? defaultCacheDir(env)));
  }

  /** One raw exchange through the transport (auth, retries, limits, redaction): the write operations in write.ts use it. */
  send(req: RegistryRequest): Promise<RegistryResponse> {
    return this.transport.send(req);
  }

  /** The client's per-attempt timeout, for writes that derive theirs from it. */
  get timeoutMs(): number {
    return this.transport.timeoutMs;
  }

  /** `GET /v2/`: resolves when the registry answers (after auth), else throws RegistryError. */
  async ping(host: string): Promise<void> {
    await this.transport.send({ method: 'GET', host, path: '/v2/', scope: '' });
  }

  async headManifest(repo: RepositoryAddress, reference: string): Promise<ManifestHead> {
    const res = await this.transport.send({ method: 'HEAD', host: repo.domain, path: manifestPath(repo, reference), accept: MANIFEST_ACCEPT, scope: pullScope(repo) });
    const length = res.headers.get('content-length');
    return {
      digest: res.headers.get('docker-content-digest') ?? undefined,
      mediaType: stripParams(res.headers.get('content-type')),
      size: length ? Number(length) : undefined,
    };
  }

  /** GET a manifest by tag or digest; the body must hash to the requested digest, or to the digest the registry claims. */
  async getManifest(repo: RepositoryAddress, reference: string): Promise<ManifestResult> {
    const byDigest = reference.includes(':');
    if (byDigest) {
      const cached = this.cache.get(reference);
      if (cached) return toManifest(reference, cached.body, cached.mediaType);
    }
    const res = await this.transport.send({ method: 'GET', host: repo.domain, path: manifestPath(repo, reference), accept: MANIFEST_ACCEPT, scope: pullScope(repo), limit: MANIFEST_LIMIT });
    const claimed = res.headers.get('docker-content-digest') ?? undefined;
    const what = `the manifest of ${repo.domain}/${repo.path}${byDigest ? '@' : ':'}${reference}`;
    if (byDigest) verifyDigest(res.body, reference, what, res.url);
    else if (claimed) verifyDigest(res.body, claimed, what, res.url);
    const digest = byDigest ? reference : sha256Digest(res.body);
    const mediaType = stripParams(res.headers.get('content-type'));
    const manifest = toManifest(digest, res.body, mediaType);
    this.cache.put(digest, res.body, manifest.mediaType);
    return manifest;
  }

  /** GET a blob; its body must hash to `digest`. */
  async getBlob(repo: RepositoryAddress, digest: string): Promise<Uint8Array> {
    const cached = this.cache.get(digest);
    if (cached) return cached.body;
    const res = await this.transport.send({ method: 'GET', host: repo.domain, path: `/v2/${repo.path}/blobs/${digest}`, scope: pullScope(repo), limit: BLOB_LIMIT });
    verifyDigest(res.body, digest, `blob ${digest} of ${repo.domain}/${repo.path}`, res.url);
    this.cache.put(digest, res.body);
    return res.body;
  }

  async getJsonBlob(repo: RepositoryAddress, digest: string): Promise<unknown> {
    const body = await this.getBlob(repo, digest);
    try {
      return JSON.parse(Buffer.from(body).toString('utf8')) as unknown;
    } catch {
      throw new RegistryError('bad-manifest', `blob ${digest} of ${repo.domain}/${repo.path} is not JSON`);
    }
  }

  /** Every tag, following `Link: <…>; rel="next"` pages. */
  async listTags(repo: RepositoryAddress, pageSize?: number): Promise<string[]> {
    const tags: string[] = [];
    let path: string | undefined = `/v2/${repo.path}/tags/list${pageSize ? `?n=${pageSize}` : ''}`;
    for (let page = 0; path && page < 10_000; page++) {
      const res = await this.transport.send({ method: 'GET', host: repo.domain, path, scope: pullScope(repo), limit: TAG_PAGE_LIMIT });
      const body = JSON.parse(Buffer.from(res.body).toString('utf8')) as { tags?: string[] | null };
      tags.push(...(body.tags ?? []));
      const next = nextLink(res.headers.get('link'));
      path = next ? new URL(next, res.url || this.transport.baseUrl(repo.domain)).toString() : undefined;
    }
    return tags;
  }
}

const MANIFEST_LIMIT: BodyLimit = { bytes: MAX_MANIFEST_BYTES, code: 'manifest-too-large', what: 'manifest' };
const BLOB_LIMIT: BodyLimit = { bytes: MAX_JSON_BLOB_BYTES, code: 'blob-too-large', what: 'blob' };
const TAG_PAGE_LIMIT: BodyLimit = { bytes: MAX_TAG_PAGE_BYTES, code: 'response-too-large', what: 'tag list page' };

export function pullScope(repo: RepositoryAddress): string {
  return `repository:${repo.path}:pull`;
}

function manifestPath(repo: RepositoryAddress, reference: string): string {
  return `/v2/${repo.path}/manifests/${reference}`;
}

function stripParams(contentType: string | null): string | undefined {
  return contentType ? contentType.split(';')[0]!.trim() : undefined;
}

function nextLink(link: string | null): string | undefined {
  if (!link) return undefined;
  const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(link);
  return m?.[1];
}

function toManifest(digest: string, body: Uint8Array, headerType: string | undefined): ManifestResult {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(Buffer.from(body).toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new RegistryError('bad-manifest', `manifest ${digest} is not JSON`);
  }
  const mediaType = typeof json.mediaType === 'string' ? json.mediaType : (headerType ?? 'application/octet-stream');
  return { digest, mediaType, body, json };
}
