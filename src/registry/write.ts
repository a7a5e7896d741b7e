/**
 * Registry writes: blob existence (HEAD), cross-repository mount within one
 * registry, streamed blob copy across registries (GET piped into a monolithic
 * PUT, or PATCH chunks then PUT, the bytes hashed on the way and checked against
 * the digest), manifest PUT with the exact bytes and media type, and the copy of
 * a whole image by digest: an index with every child manifest (nested indexes
 * too, attestation manifests are children), each manifest's config and layers,
 * and optionally the referrers (OCI referrers API, else the `sha256-<hex>` tag
 * schema). Everything goes through the client's transport: credentials, token
 * and basic auth, bounded retries, the concurrency limit, redacted typed errors.
 * A streamed body cannot be sent twice, so a failed blob copy is retried whole,
 * a bounded number of times.
 */
import { createHash } from 'node:crypto';
import type { RegistryClient, RepositoryAddress } from './client.js';
import { pullScope } from './client.js';
import { RegistryError } from './errors.js';
import { isIndexType } from './media-types.js';
import { redactUrl } from './redact.js';
import { sha256Digest } from './digest.js';
import { Semaphore } from './limit.js';

export function pushScope(repo: RepositoryAddress): string {
  return `repository:${repo.path}:pull,push`;
}

/** Streamed blob requests get this much time per attempt at least (a layer can be large). */
const MIN_BLOB_TIMEOUT_MS = 10 * 60_000;

export interface CopyOptions {
  /** Blob bodies larger than this are uploaded in PATCH chunks of this size (default: one monolithic PUT). */
  chunkBytes?: number;
  /** Whole-blob attempts (a streamed body cannot be resent by the transport; default 3). */
  blobAttempts?: number;
  /** Also copy the referrers of every manifest copied (signatures, SBOMs, attestations attached by subject). */
  referrers?: boolean;
  /** Blob copies in flight at once (default 4); manifests are copied after their blobs. */
  concurrency?: number;
}

export interface CopyStats {
  manifests: number;
  blobsCopied: number;
  blobsMounted: number;
  blobsPresent: number;
  bytesCopied: number;
  referrers: number;
  /** Layers not copied because they are non-distributable (foreign URLs), named. */
  skippedLayers: string[];
}

export function emptyCopyStats(): CopyStats {
  return { manifests: 0, blobsCopied: 0, blobsMounted: 0, blobsPresent: 0, bytesCopied: 0, referrers: 0, skippedLayers: [] };
}

function blobPath(repo: RepositoryAddress, digest: string): string {
  return `/v2/${repo.path}/blobs/${digest}`;
}

function named(repo: RepositoryAddress): string {
  return `${repo.domain}/${repo.path}`;
}

/** Whether `digest` exists in `repo`: true on 200, false only on 404; anything else throws. */
export async function blobExists(client: RegistryClient, repo: RepositoryAddress, digest: string): Promise<boolean> {
  try {
    await client.send({ method: 'HEAD', host: repo.domain, path: blobPath(repo, digest), scope: pullScope(repo) });
    return true;
  } catch (e) {
    if (e instanceof RegistryError && e.status === 404) return false;
    throw e;
  }
}

/**
 * Whether the manifest `reference` exists: its digest, or undefined only when the
 * registry says 404 / MANIFEST_UNKNOWN. A 429, 5xx, timeout or auth failure throws
 * (existence is then unknown, never "absent").
 */
export async function manifestDigestIfPresent(client: RegistryClient, repo: RepositoryAddress, reference: string): Promise<string | undefined> {
  try {
    const head = await client.headManifest(repo, reference);
    if (head.digest) return head.digest;
    return (await client.getManifest(repo, reference)).digest;
  } catch (e) {
    // Only the registry saying "not there" proves absence: 404 (MANIFEST_UNKNOWN / NAME_UNKNOWN on a GET).
    if (e instanceof RegistryError && e.status === 404) return undefined;
    throw e;
  }
}

/** Start an upload session; with `mountFrom`, ask for a cross-repository mount first. */
async function startUpload(client: RegistryClient, dst: RepositoryAddress, digest: string, mountFrom?: RepositoryAddress): Promise<{ mounted: boolean; location?: string }> {
  const query = mountFrom ? `?mount=${encodeURIComponent(digest)}&from=${encodeURIComponent(mountFrom.path)}` : '';
  const res = await client.send({ method: 'POST', host: dst.domain, path: `/v2/${dst.path}/blobs/uploads/${query}`, scope: pushScope(dst), headers: { 'Content-Length': '0' } });
  if (res.status === 201) return { mounted: true };
  const location = res.headers.get('location');
  if (!location) throw new RegistryError('blob-upload-failed', `POST ${redactUrl(res.url)} started an upload without a Location header`, { status: res.status, url: res.url });
  return { mounted: false, location: new URL(location, res.url).toString() };
}

function withDigest(location: string, digest: string): string {
  const u = new URL(location);
  u.searchParams.set('digest', digest);
  return u.toString();
}

/** A pass-through stream that hashes what flows by. */
function hashing(source: ReadableStream<Uint8Array>, algorithm: string): { stream: ReadableStream<Uint8Array>; digest: () => string; bytes: () => number } {
  const hash = createHash(algorithm);
  let total = 0;
  const stream = source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        hash.update(chunk);
        total += chunk.byteLength;
        controller.enqueue(chunk);
      },
    }),
  );
  let done: string | undefined;
  return { stream, digest: () => (done ??= `${algorithm}:${hash.digest('hex')}`), bytes: () => total };
}

function algorithmOf(digest: string): string {
  const algo = digest.split(':')[0] ?? '';
  if (algo === 'sha256' || algo === 'sha384' || algo === 'sha512') return algo;
  throw new RegistryError('digest-mismatch', `cannot verify a blob copy: unsupported digest algorithm in "${digest}"`);
}

/** Copy one blob's bytes, streamed: GET from `src`, into the upload session at `location`. */
async function streamBlob(client: RegistryClient, src: RepositoryAddress, dst: RepositoryAddress, digest: string, location: string, opts: CopyOptions): Promise<number> {
  const timeoutMs = Math.max(client.timeoutMs, MIN_BLOB_TIMEOUT_MS);
  const got = await client.send({ method: 'GET', host: src.domain, path: blobPath(src, digest), scope: pullScope(src), stream: true, noRetry: true, timeoutMs });
  if (!got.stream) throw new RegistryError('blob-upload-failed', `GET ${redactUrl(got.url)} returned no body for blob ${digest}`, { url: got.url });
  const length = got.headers.get('content-length');
  const hashed = hashing(got.stream, algorithmOf(digest));
  const chunk = opts.chunkBytes;
  if (chunk && (!length || Number(length) > chunk)) {
    // PATCH chunks of `chunk` bytes, each Content-Range'd, then the closing PUT with the digest.
    const reader = hashed.stream.getReader();
    let at = location;
    let offset = 0;
    let buffer: Uint8Array[] = [];
    let buffered = 0;
    const flush = async () => {
      if (buffered === 0) return;
      const body = Buffer.concat(buffer);
      buffer = [];
      buffered = 0;
      const res = await client.send({
        method: 'PATCH',
        host: dst.domain,
        path: at,
        scope: pushScope(dst),
        body: () => body,
        headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(body.length), 'Content-Range': `${offset}-${offset + body.length - 1}` },
        noRetry: true,
        timeoutMs,
      });
      offset += body.length;
      const next = res.headers.get('location');
      if (next) at = new URL(next, res.url).toString();
    };
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer.push(value);
      buffered += value.byteLength;
      if (buffered >= chunk) await flush();
    }
    await flush();
    checkHash(hashed.digest(), digest, src, dst);
    await client.send({ method: 'PUT', host: dst.domain, path: withDigest(at, digest), scope: pushScope(dst), headers: { 'Content-Length': '0' }, noRetry: true, timeoutMs });
    return hashed.bytes();
  }
  const headers: Record<string, string> = { 'Content-Type': 'application/octet-stream' };
  if (length) headers['Content-Length'] = length;
  try {
    await client.send({ method: 'PUT', host: dst.domain, path: withDigest(location, digest), scope: pushScope(dst), body: () => hashed.stream, headers, noRetry: true, timeoutMs });
  } catch (e) {
    // The destination refuses a body that does not match the digest; say which side was wrong.
    if (hashed.digest() !== digest) checkHash(hashed.digest(), digest, src, dst);
    throw e;
  }
  checkHash(hashed.digest(), digest, src, dst);
  return hashed.bytes();
}

function checkHash(got: string, digest: string, src: RepositoryAddress, dst: RepositoryAddress): void {
  if (got !== digest) {
    throw new RegistryError('digest-mismatch', `blob ${digest} read from ${named(src)} hashes to ${got}; refusing to copy it to ${named(dst)}`);
  }
}

/**
 * Make blob `digest` of `src` exist in `dst`: already there, mounted (same
 * registry), or streamed across. Returns how.
 */
export async function copyBlob(client: RegistryClient, src: RepositoryAddress, dst: RepositoryAddress, digest: string, opts: CopyOptions = {}): Promise<{ how: 'present' | 'mounted' | 'copied'; bytes: number }> {
  if (await blobExists(client, dst, digest)) return { how: 'present', bytes: 0 };
  const attempts = Math.max(1, opts.blobAttempts ?? 3);
  for (let attempt = 1; ; attempt++) {
    try {
      const session = await startUpload(client, dst, digest, src.domain === dst.domain && src.path !== dst.path ? src : undefined);
      if (session.mounted) return { how: 'mounted', bytes: 0 };
      const bytes = await streamBlob(client, src, dst, digest, session.location!, opts);
      return { how: 'copied', bytes };
    } catch (e) {
      const retriable = e instanceof RegistryError && (e.code === 'registry-unreachable' || e.code === 'registry-retries-exhausted' || e.code === 'registry-timeout' || (e.status !== undefined && e.status >= 500));
      if (!retriable || attempt >= attempts) throw e;
    }
  }
}

/** PUT a manifest with its exact bytes and media type; the registry's digest must be the bytes' digest. */
export async function putManifest(client: RegistryClient, repo: RepositoryAddress, reference: string, body: Uint8Array, mediaType: string): Promise<string> {
  const digest = sha256Digest(body);
  const res = await client.send({
    method: 'PUT',
    host: repo.domain,
    path: `/v2/${repo.path}/manifests/${reference}`,
    scope: pushScope(repo),
    body: () => Buffer.from(body),
    headers: { 'Content-Type': mediaType, 'Content-Length': String(body.byteLength) },
  });
  const claimed = res.headers.get('docker-content-digest');
  if (claimed && claimed !== digest) {
    throw new RegistryError('digest-mismatch', `${named(repo)} stored the manifest ${reference} as ${claimed}, but its bytes hash to ${digest}`, { url: res.url });
  }
  return digest;
}

interface Descriptor {
  mediaType?: string;
  digest?: string;
  size?: number;
  urls?: string[];
}

const isDigest = (d: unknown): d is string => typeof d === 'string' && /^[a-z0-9]+:[0-9a-f]{32,}$/.test(d);

/** Layers a registry must not be asked to hold (foreign/non-distributable, with URLs). */
function nonDistributable(d: Descriptor): boolean {
  return (d.mediaType ?? '').includes('nondistributable') || (d.mediaType ?? '').includes('foreign') || (Array.isArray(d.urls) && d.urls.length > 0);
}

/**
 * Copy the manifest `digest` of `src` into `dst` by digest, with everything it
 * references, then tag it with each of `tags`. Children before parents, blobs
 * before their manifest, so the destination never holds a dangling manifest.
 */
export async function copyImage(client: RegistryClient, src: RepositoryAddress, dst: RepositoryAddress, digest: string, tags: readonly string[], opts: CopyOptions = {}, stats: CopyStats = emptyCopyStats()): Promise<CopyStats> {
  const limit = new Semaphore(Math.max(1, opts.concurrency ?? 4));
  const done = new Set<string>();
  const copyManifest = async (d: string): Promise<{ body: Uint8Array; mediaType: string }> => {
    const m = await client.getManifest(src, d);
    if (!done.has(d)) {
      done.add(d);
      if (isIndexType(m.mediaType)) {
        const children = Array.isArray(m.json.manifests) ? (m.json.manifests as Descriptor[]) : [];
        for (const child of children) {
          if (!isDigest(child.digest)) throw new RegistryError('bad-manifest', `the index ${named(src)}@${d} lists a child without a digest`);
          await copyManifest(child.digest);
        }
      } else {
        const config = m.json.config as Descriptor | undefined;
        const layers = Array.isArray(m.json.layers) ? (m.json.layers as Descriptor[]) : [];
        const blobs: string[] = [];
        if (config && isDigest(config.digest)) blobs.push(config.digest);
        for (const l of layers) {
          if (!isDigest(l.digest)) throw new RegistryError('bad-manifest', `the manifest ${named(src)}@${d} lists a layer without a digest`);
          if (nonDistributable(l)) stats.skippedLayers.push(`${l.digest} (${l.mediaType ?? 'no media type'}: non-distributable, not copied)`);
          else blobs.push(l.digest);
        }
        await Promise.all(
          [...new Set(blobs)].map((b) =>
            limit.run(async () => {
              const r = await copyBlob(client, src, dst, b, opts);
              if (r.how === 'present') stats.blobsPresent++;
              else if (r.how === 'mounted') stats.blobsMounted++;
              else {
                stats.blobsCopied++;
                stats.bytesCopied += r.bytes;
              }
            }),
          ),
        );
      }
      await putManifest(client, dst, d, m.body, m.mediaType);
      stats.manifests++;
      if (opts.referrers) await copyReferrers(d);
    }
    return { body: m.body, mediaType: m.mediaType };
  };
  const copyReferrers = async (subject: string): Promise<void> => {
    for (const r of await listReferrers(client, src, subject)) {
      if (done.has(r)) continue;
      await copyManifest(r);
      stats.referrers++;
    }
  };
  const top = await copyManifest(digest);
  for (const tag of tags) await putManifest(client, dst, tag, top.body, top.mediaType);
  return stats;
}

/**
 * The referrers of `subject`: the OCI referrers API when the registry has it, else
 * the tag schema (`sha256-<hex>` index). A registry with neither has none (404).
 */
export async function listReferrers(client: RegistryClient, repo: RepositoryAddress, subject: string): Promise<string[]> {
  try {
    const res = await client.send({ method: 'GET', host: repo.domain, path: `/v2/${repo.path}/referrers/${subject}`, scope: pullScope(repo), accept: 'application/vnd.oci.image.index.v1+json' });
    const body = JSON.parse(Buffer.from(res.body).toString('utf8')) as { manifests?: Descriptor[] };
    return (body.manifests ?? []).map((m) => m.digest).filter(isDigest);
  } catch (e) {
    if (!(e instanceof RegistryError) || (e.status !== 404 && e.status !== 400 && e.status !== 405)) throw e;
  }
  const tag = subject.replace(':', '-');
  try {
    const m = await client.getManifest(repo, tag);
    const list = Array.isArray(m.json.manifests) ? (m.json.manifests as Descriptor[]) : [];
    return list.map((d) => d.digest).filter(isDigest);
  } catch (e) {
    if (e instanceof RegistryError && e.status === 404) return [];
    throw e;
  }
}

/** Whether `digest` is fully present in `repo`: the manifest resolves by digest and hashes to it (children of an index too). */
export async function verifyImage(client: RegistryClient, repo: RepositoryAddress, digest: string): Promise<void> {
  // HEAD at the destination itself (the local cache is content-addressed and would answer for any repository).
  const head = await client.headManifest(repo, digest);
  if (head.digest !== undefined && head.digest !== digest) throw new RegistryError('digest-mismatch', `${named(repo)}@${digest} answers with digest ${head.digest}`);
  const m = await client.getManifest(repo, digest);
  if (isIndexType(m.mediaType)) {
    for (const child of (Array.isArray(m.json.manifests) ? (m.json.manifests as Descriptor[]) : [])) {
      if (isDigest(child.digest)) await verifyImage(client, repo, child.digest);
    }
    return;
  }
  const config = m.json.config as Descriptor | undefined;
  const blobs = [config?.digest, ...(Array.isArray(m.json.layers) ? (m.json.layers as Descriptor[]).filter((l) => !nonDistributable(l)).map((l) => l.digest) : [])].filter(isDigest);
  for (const b of blobs) {
    if (!(await blobExists(client, repo, b))) throw new RegistryError('blob-unknown', `${named(repo)}@${digest} was copied, but its blob ${b} is missing there`);
  }
}

