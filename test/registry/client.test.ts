/** The registry client and provenance against a real distribution registry. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RegistryClient, RegistryError, registryProvenance, sha256Digest } from '../../src/registry/index.js';
import { apiHost, schemeFor } from '../../src/registry/transport.js';
import type { TestRegistry } from '../support/registry.js';
import { pushAttestation, pushImage, pushIndex, startRegistry } from '../support/registry.js';

const COMMIT_A = 'a'.repeat(40);
const COMMIT_B = '0123456789abcdef0123456789abcdef01234567';
const COMMIT_C = 'c'.repeat(40);

let reg: TestRegistry;
let cacheDir: string;
const images: Record<string, string> = {};

beforeAll(async () => {
  reg = await startRegistry();
  cacheDir = mkdtempSync(join(tmpdir(), 'pinwatch-cache-'));
  const app = await pushImage(reg, 'team/app', 'v1.0.0', {
    labels: { 'org.opencontainers.image.revision': COMMIT_A, 'org.opencontainers.image.source': 'https://example.test/team/app' },
  });
  images.app = app.digest;
  const amd = await pushImage(reg, 'team/multi', 'amd', { labels: { 'org.opencontainers.image.revision': COMMIT_B }, untagged: true, content: 'amd' });
  const arm = await pushImage(reg, 'team/multi', 'arm', { labels: { 'org.opencontainers.image.revision': COMMIT_B }, architecture: 'arm64', untagged: true, content: 'arm' });
  images.multi = await pushIndex(reg, 'team/multi', 'v2', [
    { image: amd, platform: { os: 'linux', architecture: 'amd64' } },
    { image: arm, platform: { os: 'linux', architecture: 'arm64' } },
  ]);
  const bare = await pushImage(reg, 'team/attested', 'x', { untagged: true, content: 'bare' });
  const att = await pushAttestation(reg, 'team/attested', bare.digest, {
    _type: 'https://in-toto.io/Statement/v1',
    predicateType: 'https://slsa.dev/provenance/v1',
    predicate: { buildDefinition: { resolvedDependencies: [{ uri: 'git+https://example.test/team/attested@refs/heads/main', digest: { gitCommit: COMMIT_C } }] } },
  });
  images.attested = await pushIndex(reg, 'team/attested', 'v3', [
    { image: bare, platform: { os: 'linux', architecture: 'amd64' } },
    { image: att, platform: { os: 'unknown', architecture: 'unknown' }, annotations: { 'vnd.docker.reference.type': 'attestation-manifest', 'vnd.docker.reference.digest': bare.digest } },
  ]);
  await pushImage(reg, 'team/nolabel', 'v0', {});
  const annotated = await pushImage(reg, 'team/annotated', 'x', { untagged: true, content: 'ann' });
  await pushIndex(reg, 'team/annotated', 'v4', [{ image: annotated, platform: { os: 'linux', architecture: 'amd64' } }], {
    'org.opencontainers.image.revision': COMMIT_A,
    'org.opencontainers.image.source': 'https://example.test/annotated',
  });
  for (const t of ['a1', 'a2', 'a3', 'a4', 'a5']) await pushImage(reg, 'team/paged', t, { content: t });
});

afterAll(async () => {
  await reg?.stop();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe('RegistryClient', () => {
  it('pings, resolves a tag, and verifies the manifest body against its digest', async () => {
    const client = new RegistryClient({ cacheDir: false });
    await client.ping(reg.host);
    const m = await client.getManifest({ domain: reg.host, path: 'team/app' }, 'v1.0.0');
    expect(m.digest).toBe(images.app);
    expect(sha256Digest(m.body)).toBe(images.app);
    const head = await client.headManifest({ domain: reg.host, path: 'team/app' }, 'v1.0.0');
    expect(head.digest).toBe(images.app);
    expect(head.mediaType).toBe('application/vnd.oci.image.manifest.v1+json');
  });

  it('lists tags across Link-paginated pages', async () => {
    const client = new RegistryClient({ cacheDir: false });
    const tags = await client.listTags({ domain: reg.host, path: 'team/paged' }, 2);
    expect(tags.sort()).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('types a missing manifest as manifest-unknown with the registry code', async () => {
    const client = new RegistryClient({ cacheDir: false });
    const err = await client.getManifest({ domain: reg.host, path: 'team/app' }, 'nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryError);
    expect((err as RegistryError).code).toBe('manifest-unknown');
    expect((err as RegistryError).status).toBe(404);
    expect((err as RegistryError).registryCodes).toContain('MANIFEST_UNKNOWN');
  });

  it('caches bodies by digest on disk and serves them again without the registry', async () => {
    const client = new RegistryClient({ cacheDir });
    await registryProvenance(`${reg.host}/team/app@${images.app}`, { client });
    expect(readdirSync(join(cacheDir, 'sha256'))).toContain(images.app!.slice(7));
    // A client pointed at a dead port still answers by digest from the cache.
    const offline = new RegistryClient({ cacheDir, retries: 0 });
    const m = await offline.getManifest({ domain: reg.host, path: 'team/app' }, images.app!);
    expect(m.digest).toBe(images.app);
  });

  it('does not retry what cannot get better: a port fetch refuses', async () => {
    const e = (await new RegistryClient({ cacheDir: false, retries: 3, retryBaseMs: 1000 }).ping('127.0.0.1:6000').catch((x: unknown) => x)) as RegistryError;
    expect(e).toBeInstanceOf(RegistryError);
    expect(e.code).toBe('registry-unreachable');
    expect(e.message).toMatch(/failed after 1 attempt\(s\): Node's fetch refuses this port/);
  });

  it.each([
    ['127.0.0.1:5000', [], 'http'],
    ['localhost:5000', [], 'http'],
    ['[::1]:5000', [], 'http'],
    ['registry.lan:5000', [], 'https'],
    ['registry.lan:5000', ['registry.lan:5000'], 'http'],
    ['registry.lan:5000', ['registry.lan'], 'http'],
    ['registry.lan', ['other.lan'], 'https'],
    ['ghcr.io', [], 'https'],
  ] as const)('uses %s with insecure=%j over %s', (host, insecure, want) => {
    expect(schemeFor(host, insecure)).toBe(want);
  });

  it('maps docker.io to its API host', () => {
    expect(apiHost('docker.io')).toBe('registry-1.docker.io');
    expect(apiHost('ghcr.io')).toBe('ghcr.io');
  });
});

describe('registryProvenance', () => {
  it('names the label commit, source and platform of a single manifest', async () => {
    const p = await registryProvenance(`${reg.host}/team/app:v1.0.0`, { cacheDir: false });
    expect(p).toMatchObject({ digest: images.app, commit: COMMIT_A, commitFrom: 'label', source: 'https://example.test/team/app', platforms: ['linux/amd64'] });
    expect(p.labels['org.opencontainers.image.revision']).toBe(COMMIT_A);
    expect(p.reason).toBeUndefined();
  });

  it('resolves an index to its platform manifests', async () => {
    const p = await registryProvenance(`${reg.host}/team/multi:v2`, { cacheDir: false });
    expect(p.digest).toBe(images.multi);
    expect(p.platforms).toEqual(['linux/amd64', 'linux/arm64']);
    expect(p.commit).toBe(COMMIT_B);
  });

  it('reads the commit from a provenance attestation when no label names one', async () => {
    const p = await registryProvenance(`${reg.host}/team/attested:v3`, { cacheDir: false });
    expect(p.platforms).toEqual(['linux/amd64']);
    expect(p).toMatchObject({ commit: COMMIT_C, commitFrom: 'attestation', source: 'https://example.test/team/attested@refs/heads/main' });
  });

  it('reads the commit from index annotations', async () => {
    const p = await registryProvenance(`${reg.host}/team/annotated:v4`, { cacheDir: false });
    expect(p).toMatchObject({ commit: COMMIT_A, commitFrom: 'annotation', source: 'https://example.test/annotated' });
  });

  it('says why when the image names no commit', async () => {
    const p = await registryProvenance(`${reg.host}/team/nolabel:v0`, { cacheDir: false });
    expect(p.commit).toBeUndefined();
    expect(p.reason).toMatch(/no org\.opencontainers\.image\.revision label/);
  });
});
