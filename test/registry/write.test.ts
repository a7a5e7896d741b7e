/**
 * The registry client's writes against real docker-registry instances: blob
 * HEAD, a cross-repository mount within one registry, a streamed copy across
 * registries as one PUT and as PATCH chunks, a corrupted source body refused by
 * digest, manifest PUT keeping the exact bytes, and existence that only a 404
 * proves (a 503 is an error, never "absent").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegistryClient, RegistryError, blobExists, copyBlob, copyImage, manifestDigestIfPresent, putManifest } from '../../src/registry/index.js';
import type { FaultProxy, PushedImage, TestRegistry } from '../support/registry.js';
import { pushBlob, pushImage, sha256, startFaultProxy, startRegistry } from '../support/registry.js';

let a: TestRegistry;
let b: TestRegistry;
let proxy: FaultProxy;
let img: PushedImage;
let big = '';
const client = () => new RegistryClient({ cacheDir: false, retries: 1, retryBaseMs: 1 });

beforeAll(async () => {
  a = await startRegistry();
  b = await startRegistry();
  proxy = await startFaultProxy(a);
  img = await pushImage(a, 'team/app', 'v1', { content: 'write test' });
  const body = Buffer.alloc(300_000);
  for (let i = 0; i < body.length; i++) body[i] = (i * 7919) % 251;
  big = await pushBlob(a, 'team/app', body);
});

afterAll(async () => {
  await proxy?.stop();
  await a?.stop();
  await b?.stop();
});

describe('registry writes', () => {
  it('HEADs a blob: true when present, false only on 404', async () => {
    expect(await blobExists(client(), { domain: a.host, path: 'team/app' }, img.configDigest)).toBe(true);
    expect(await blobExists(client(), { domain: a.host, path: 'team/app' }, sha256('nope'))).toBe(false);
  });

  it('mounts a blob from another repository of the same registry', async () => {
    const r = await copyBlob(client(), { domain: a.host, path: 'team/app' }, { domain: a.host, path: 'team/mounted' }, big);
    expect(r.how).toBe('mounted');
    expect(await blobExists(client(), { domain: a.host, path: 'team/mounted' }, big)).toBe(true);
  });

  it.each([
    ['one streamed PUT', undefined, 'team/put'],
    ['PATCH chunks', 64 * 1024, 'team/chunked'],
  ])('copies a blob across registries as %s, then finds it present', async (_what, chunkBytes, path) => {
    const from = { domain: a.host, path: 'team/app' };
    const to = { domain: b.host, path };
    const r = await copyBlob(client(), from, to, big, { chunkBytes });
    expect(r).toEqual({ how: 'copied', bytes: 300_000 });
    const got = await client().getBlob(to, big).catch((e: unknown) => e);
    // getBlob caps at 16 MiB and verifies the digest: the bytes arrived intact
    expect(got).toBeInstanceOf(Uint8Array);
    expect((await copyBlob(client(), from, to, big)).how).toBe('present');
  });

  it('refuses a source body that does not hash to its digest, leaving nothing at the destination', async () => {
    proxy.fault = (req) => (req.method === 'GET' && req.url?.includes('/blobs/') ? { kind: 'corrupt' } : { kind: 'pass' });
    try {
      const e = await copyBlob(client(), { domain: proxy.host, path: 'team/app' }, { domain: b.host, path: 'team/corrupt' }, img.configDigest, { blobAttempts: 1 }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(RegistryError);
      expect((e as RegistryError).code).toBe('digest-mismatch');
      expect(await blobExists(client(), { domain: b.host, path: 'team/corrupt' }, img.configDigest)).toBe(false);
    } finally {
      proxy.fault = () => ({ kind: 'pass' });
    }
  });

  it('PUTs a manifest with its exact bytes (whitespace kept, digest of the bytes)', async () => {
    const to = { domain: b.host, path: 'team/exact' };
    await copyImage(client(), { domain: a.host, path: 'team/app' }, to, img.digest, []);
    const m = await client().getManifest({ domain: a.host, path: 'team/app' }, img.digest);
    const spaced = Buffer.from(`${Buffer.from(m.body).toString('utf8').replace('{', '{\n  ')}\n`);
    const digest = await putManifest(client(), to, 'spaced', spaced, m.mediaType);
    expect(digest).toBe(sha256(spaced));
    expect((await client().headManifest(to, 'spaced')).digest).toBe(sha256(spaced));
  });

  it('says absent only on 404: a 503 on HEAD is an error', async () => {
    expect(await manifestDigestIfPresent(client(), { domain: a.host, path: 'team/app' }, 'v9')).toBeUndefined();
    expect(await manifestDigestIfPresent(client(), { domain: a.host, path: 'team/app' }, 'v1')).toBe(img.digest);
    expect(await manifestDigestIfPresent(client(), { domain: a.host, path: 'team/none' }, 'v1')).toBeUndefined();
    proxy.fault = (req) => (req.method === 'HEAD' ? { kind: 'respond', status: 503 } : { kind: 'pass' });
    try {
      const e = await manifestDigestIfPresent(client(), { domain: proxy.host, path: 'team/app' }, 'v9').catch((x: unknown) => x);
      expect(e).toBeInstanceOf(RegistryError);
      expect((e as RegistryError).code).toBe('registry-retries-exhausted');
    } finally {
      proxy.fault = () => ({ kind: 'pass' });
    }
  });
});
