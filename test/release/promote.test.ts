/**
 * `pinwatch promote` on real registries (docker-registry on loopback; one behind
 * token auth): the plan (absent / already / conflict), an idempotent rerun, the
 * write-once refusal with nothing written, indeterminate existence (a fault proxy
 * answering 503/429 on HEAD) aborting before any write, digest-less and
 * two-digest pins reported, the `--move latest` semver rule, and `--rewrite`
 * changing only tag bytes, idempotently.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RegistryClient } from '../../src/registry/index.js';
import { runCli } from '../support/io.js';
import type { FaultProxy, PushedImage, TestRegistry } from '../support/registry.js';
import { pushImage, startFaultProxy, startRegistry } from '../support/registry.js';
import type { TestRepo } from '../support/repo.js';
import { makeRepo } from '../support/repo.js';
import type { TokenServer } from '../support/token-server.js';
import { startTokenServer } from '../support/token-server.js';

let reg: TestRegistry;
let tokens: TokenServer;
let secure: TestRegistry;
let proxy: FaultProxy;
let repo: TestRepo;
let dockerDir: string;
const images: Record<string, PushedImage> = {};
const client = () => new RegistryClient({ cacheDir: false });

beforeAll(async () => {
  reg = await startRegistry();
  tokens = await startTokenServer();
  tokens.users = { releaser: 'rel-pass-9x' };
  secure = await startRegistry({ token: tokens });
  secure.pushAuth = (r) => `Bearer ${tokens.mint('pusher', r, ['pull', 'push'])}`;
  proxy = await startFaultProxy(reg);
  for (const name of ['app', 'api', 'worker']) images[name] = await pushImage(reg, `acme/${name}`, 'v1.0.0-rc.1', { content: `${name} rc1` });
  images.apiOther = await pushImage(reg, 'acme/api', 'v1.1.0', { content: 'api other build' });
  images.secure = await pushImage(secure, 'acme/secure', 'v1.0.0-rc.1', { content: 'secure rc1' });
  repo = makeRepo('pinwatch-promote-');
  dockerDir = join(repo.dir, '.docker-test');
  mkdirSync(dockerDir, { recursive: true });
  writeFileSync(join(dockerDir, 'config.json'), JSON.stringify({ auths: { [secure.host]: { auth: Buffer.from('releaser:rel-pass-9x').toString('base64') } } }));
});

afterAll(async () => {
  await proxy?.stop();
  await reg?.stop();
  await secure?.stop();
  await tokens?.stop();
  repo?.cleanup();
});

function tree(host: string, extra: Record<string, string | null> = {}): void {
  const A = `${host}/acme`;
  repo.write({
    'pinwatch.yaml': `firstParty:\n  - ${A}\n  - ${secure.host}/acme\n`,
    'deploy/values.yaml': [
      'app:',
      `  image: ${A}/app:v1.0.0-rc.1@${images.app!.digest}  # the app`,
      'worker:',
      '  image:',
      `    registry: ${host}`,
      '    repository: acme/worker',
      `    tag: v1.0.0-rc.1@${images.worker!.digest}`,
      'proxy:',
      '  image: docker.io/library/nginx:1.27',
      '',
    ].join('\n'),
    'images/api.tag': `${A}/api:v1.0.0-rc.1@${images.api!.digest}\n`,
    'images/secure.tag': null,
    'images/bare.tag': null,
    'images/api-two.tag': null,
    ...extra,
  });
}

function run(args: string[]) {
  return runCli([...args, '--no-cache'], { cwd: repo.dir, env: { DOCKER_CONFIG: dockerDir } });
}

async function tagDigest(r: TestRegistry | FaultProxy, path: string, tag: string): Promise<string | undefined> {
  const res = await fetch(`${r.url}/v2/${path}/manifests/${tag}`, { method: 'HEAD', headers: { Accept: 'application/vnd.oci.image.manifest.v1+json, application/vnd.oci.image.index.v1+json' } });
  return res.status === 200 ? (res.headers.get('docker-content-digest') ?? undefined) : undefined;
}

describe('promote', () => {
  it('plans under --dry-run and writes nothing', async () => {
    tree(reg.host);
    const r = await run(['promote', '--tag', 'v1.0.0', '--dry-run', '--format', 'json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.version).toBe(1);
    expect(doc.images.map((i: { repository: string; plan: string }) => `${i.repository} ${i.plan}`)).toEqual([
      `${reg.host}/acme/api absent`,
      `${reg.host}/acme/app absent`,
      `${reg.host}/acme/worker absent`,
    ]);
    expect(await tagDigest(reg, 'acme/app', 'v1.0.0')).toBeUndefined();
  });

  it('tags every pinned digest, verifies, and a rerun is idempotent', async () => {
    tree(reg.host);
    const first = await run(['promote', '--tag', 'v1.0.0', '--format', 'json']);
    expect(first.code).toBe(0);
    const doc = JSON.parse(first.out);
    expect(doc.images.map((i: { action: string }) => i.action)).toEqual(['tagged', 'tagged', 'tagged']);
    for (const name of ['app', 'api', 'worker']) expect(await tagDigest(reg, `acme/${name}`, 'v1.0.0')).toBe(images[name]!.digest);
    // nginx (third-party) is not touched
    expect(doc.images.some((i: { repository: string }) => i.repository.includes('nginx'))).toBe(false);
    const again = await run(['promote', '--tag', 'v1.0.0', '--format', 'json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out).images.map((i: { action: string }) => i.action)).toEqual(['already', 'already', 'already']);
  });

  it('refuses the whole promotion when one tag exists at another digest, writing nothing', async () => {
    tree(reg.host);
    const r = await run(['promote', '--tag', 'v1.1.0', '--format', 'json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.out);
    const api = doc.images.find((i: { repository: string }) => i.repository.endsWith('/api'));
    expect(api.action).toBe('conflict');
    expect(api.existing).toBe(images.apiOther!.digest);
    expect(doc.refused).toMatch(/write-once|refused/);
    expect(await tagDigest(reg, 'acme/app', 'v1.1.0')).toBeUndefined();
    expect(await tagDigest(reg, 'acme/worker', 'v1.1.0')).toBeUndefined();
    expect(await tagDigest(reg, 'acme/api', 'v1.1.0')).toBe(images.apiOther!.digest);
  });

  it('lists a digest-less pin and a two-digest repository with the reason, exit 1, nothing tagged', async () => {
    tree(reg.host, { 'images/bare.tag': `${reg.host}/acme/bare:latest\n`, 'images/api-two.tag': `${reg.host}/acme/api:v1.1.0@${images.apiOther!.digest}\n` });
    const r = await run(['promote', '--tag', 'v1.2.0']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/skipped +127\.0\.0\.1:\d+\/acme\/bare\n +pinned without a digest at images\/bare\.tag:1/);
    expect(r.out).toMatch(/acme\/api\n +pinned at 2 digests/);
    expect(r.out).toContain('refused:');
    expect(await tagDigest(reg, 'acme/app', 'v1.2.0')).toBeUndefined();
  });

  it.each([
    [503, 'registry-retries-exhausted'],
    [429, 'registry-retries-exhausted'],
  ])('aborts with exit 2 before any write when HEAD answers %i', async (status) => {
    tree(proxy.host, { 'pinwatch.yaml': `firstParty:\n  - ${proxy.host}/acme\n` });
    proxy.seen.length = 0;
    proxy.fault = (req) => (req.method === 'HEAD' && req.url?.includes('/acme/worker/manifests/') ? { kind: 'respond', status, headers: { 'Retry-After': '0' } } : { kind: 'pass' });
    try {
      const r = await run(['promote', '--tag', 'v3.0.0', '--format', 'json']);
      expect(r.code).toBe(2);
      const doc = JSON.parse(r.out);
      expect(doc.indeterminate).toBe(true);
      expect(doc.images.find((i: { repository: string }) => i.repository.endsWith('/worker')).plan).toBe('indeterminate');
      expect(proxy.seen.filter((s) => s.startsWith('PUT') || s.startsWith('POST'))).toEqual([]);
      expect(await tagDigest(reg, 'acme/app', 'v3.0.0')).toBeUndefined();
    } finally {
      proxy.fault = () => ({ kind: 'pass' });
    }
  });

  it('tags through token auth with docker-config credentials', async () => {
    tree(reg.host, { 'images/secure.tag': `${secure.host}/acme/secure:v1.0.0-rc.1@${images.secure!.digest}\n` });
    const r = await run(['promote', '--tag', 'v1.0.0', '--format', 'json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.images.find((i: { repository: string }) => i.repository.endsWith('/secure')).action).toBe('tagged');
    const head = await new RegistryClient({ cacheDir: false, env: { DOCKER_CONFIG: dockerDir } }).headManifest({ domain: secure.host, path: 'acme/secure' }, 'v1.0.0');
    expect(head.digest).toBe(images.secure!.digest);
    expect(r.out).not.toContain('rel-pass-9x');
  });

  it('--move latest moves only when TAG is the highest semver, unless --force-move', async () => {
    const m1 = await pushImage(reg, 'acme/mover', 'build-1', { content: 'mover 1' });
    const m2 = await pushImage(reg, 'acme/mover', 'build-2', { content: 'mover 2' });
    const only = (digest: string) => ({ 'pinwatch.yaml': `firstParty:\n  - ${reg.host}/acme/mover\n`, 'deploy/values.yaml': `mover:\n  image: ${reg.host}/acme/mover:rc@${digest}\n`, 'images/api.tag': null });
    repo.write(only(m1.digest));
    const up = await run(['promote', '--tag', 'v2.0.0', '--move', 'latest', '--format', 'json']);
    expect(up.code).toBe(0);
    expect(JSON.parse(up.out).images[0].moves[0].action).toBe('moved');
    expect(await tagDigest(reg, 'acme/mover', 'latest')).toBe(m1.digest);
    repo.write(only(m2.digest));
    const back = await run(['promote', '--tag', 'v1.5.0', '--move', 'latest', '--format', 'json']);
    expect(back.code).toBe(0);
    const move = JSON.parse(back.out).images[0].moves[0];
    expect(move.action).toBe('kept');
    expect(move.reason).toContain('v2.0.0');
    expect(await tagDigest(reg, 'acme/mover', 'latest')).toBe(m1.digest);
    expect(await tagDigest(reg, 'acme/mover', 'v1.5.0')).toBe(m2.digest);
    const forced = await run(['promote', '--tag', 'v1.5.0', '--move', 'latest', '--force-move', '--format', 'json']);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.out).images[0].moves[0].action).toBe('moved');
    expect(await tagDigest(reg, 'acme/mover', 'latest')).toBe(m2.digest);
    void client;
  });

  it('--rewrite --from-tag rewrites only the release candidate\'s tag; a component-versioned pin keeps its own', async () => {
    tree(reg.host, { 'images/api.tag': `${reg.host}/acme/api:v0.19.0-component.1@${images.api!.digest}\n` });
    const r = await run(['promote', '--tag', 'v1.0.0', '--rewrite', '--from-tag', 'v1.0.0-rc.1', '--format', 'json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.rewrite.changes.map((c: { file: string }) => c.file)).toEqual(['deploy/values.yaml', 'deploy/values.yaml']);
    expect(doc.problems.map((p: { code: string; reason: string }) => `${p.code} ${p.reason}`)).toEqual(['tag-kept images/api.tag:1 keeps its tag v0.19.0-component.1 (not --from-tag v1.0.0-rc.1)']);
    expect(readFileSync(join(repo.dir, 'images/api.tag'), 'utf8')).toBe(`${reg.host}/acme/api:v0.19.0-component.1@${images.api!.digest}\n`);
    expect(readFileSync(join(repo.dir, 'deploy/values.yaml'), 'utf8')).not.toContain('rc.1');
    const bad = await run(['promote', '--tag', 'v1.0.0', '--from-tag', 'v1.0.0-rc.1']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('[conflicting-options]');
  });

  it('--rewrite changes only the tag strings, in every shape, and a rerun changes nothing', async () => {
    tree(reg.host);
    const before = {
      values: readFileSync(join(repo.dir, 'deploy/values.yaml'), 'utf8'),
      api: readFileSync(join(repo.dir, 'images/api.tag'), 'utf8'),
    };
    const r = await run(['promote', '--tag', 'v1.0.0', '--rewrite']);
    expect(r.code).toBe(0);
    const values = readFileSync(join(repo.dir, 'deploy/values.yaml'), 'utf8');
    const api = readFileSync(join(repo.dir, 'images/api.tag'), 'utf8');
    expect(values).toBe(before.values.replaceAll('v1.0.0-rc.1', 'v1.0.0'));
    expect(api).toBe(before.api.replace('v1.0.0-rc.1', 'v1.0.0'));
    expect(values).toContain('docker.io/library/nginx:1.27');
    expect(r.out).toContain('postcondition: nothing in the tree still names the old value');
    const again = await run(['promote', '--tag', 'v1.0.0', '--rewrite', '--format', 'json']);
    expect(again.code).toBe(0);
    const doc = JSON.parse(again.out);
    expect(doc.rewrite.changes).toEqual([]);
    expect(doc.rewrite.written).toBe(false);
    expect(readFileSync(join(repo.dir, 'deploy/values.yaml'), 'utf8')).toBe(values);
  });
});
