/**
 * `pinwatch mirror` across two real registries (docker-registry on loopback; the
 * destination behind token auth): an index with two platforms and a BuildKit
 * attestation copied by digest with every child, config and layer, verified at
 * the destination; `--rewrite` in every shape against golden files (only ref
 * bytes change, the postcondition lists the text left outside the pins); a copy
 * failure and a kill in the middle of a copy both leave the tree untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RegistryClient, blobExists } from '../../src/registry/index.js';
import { runCli } from '../support/io.js';
import type { FaultProxy, TestRegistry } from '../support/registry.js';
import { pushAttestation, pushImage, pushIndex, startFaultProxy, startRegistry } from '../support/registry.js';
import type { TestRepo } from '../support/repo.js';
import { makeRepo } from '../support/repo.js';
import type { TokenServer } from '../support/token-server.js';
import { startTokenServer } from '../support/token-server.js';

const here = dirname(fileURLToPath(import.meta.url));
const GOLDEN = join(here, 'golden', 'mirror');
const CLI = join(here, '..', '..', 'bin', 'pinwatch.js');

let src: TestRegistry;
let tokens: TokenServer;
let dst: TestRegistry;
let proxy: FaultProxy;
let repo: TestRepo;
let dockerDir: string;
let IDX = '';
let CHART = '';
const children: string[] = [];
const blobs: string[] = [];

function files(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)));
    }
  };
  walk(dir);
  return out.sort();
}

function fill(text: string, srcHost: string): string {
  return text.replaceAll('{{SRC}}', srcHost).replaceAll('{{DST}}', dst.host).replaceAll('{{IDX}}', IDX).replaceAll('{{CHART}}', CHART);
}

/** Lay the golden `before` tree into the repository, pins naming `srcHost`, and commit it. */
function layTree(srcHost: string): void {
  const out: Record<string, string> = {
    'pinwatch.yaml': `firstParty:\n  - ${srcHost}/acme\n  - ${dst.host}/mirror\nextraFiles:\n  - templates/deploy.tpl\n`,
  };
  for (const f of files(join(GOLDEN, 'before'))) out[f] = fill(readFileSync(join(GOLDEN, 'before', f), 'utf8'), srcHost);
  repo.commit(out, `tree at ${srcHost}`);
}

beforeAll(async () => {
  src = await startRegistry();
  tokens = await startTokenServer();
  tokens.users = { mirror: 'mirror-pass-4q' };
  dst = await startRegistry({ token: tokens });
  proxy = await startFaultProxy(src);
  const amd = await pushImage(src, 'acme/ci/app', 'amd', { untagged: true, architecture: 'amd64', content: 'app amd64' });
  const arm = await pushImage(src, 'acme/ci/app', 'arm', { untagged: true, architecture: 'arm64', content: 'app arm64' });
  const att = await pushAttestation(src, 'acme/ci/app', amd.digest, { _type: 'https://in-toto.io/Statement/v1', predicateType: 'https://slsa.dev/provenance/v1', predicate: {} });
  IDX = await pushIndex(src, 'acme/ci/app', 'v1', [
    { image: amd, platform: { os: 'linux', architecture: 'amd64' } },
    { image: arm, platform: { os: 'linux', architecture: 'arm64' } },
    { image: att, platform: { os: 'unknown', architecture: 'unknown' }, annotations: { 'vnd.docker.reference.type': 'attestation-manifest', 'vnd.docker.reference.digest': amd.digest } },
  ]);
  children.push(amd.digest, arm.digest, att.digest);
  blobs.push(amd.configDigest, arm.configDigest, att.configDigest);
  CHART = (await pushImage(src, 'acme/ci/charts/app', 'v1', { content: 'chart' })).digest;
  repo = makeRepo('pinwatch-mirror-');
  dockerDir = join(repo.dir, '..', `docker-${relative(dirname(repo.dir), repo.dir)}`);
  mkdirSync(dockerDir, { recursive: true });
  writeFileSync(join(dockerDir, 'config.json'), JSON.stringify({ auths: { [dst.host]: { auth: Buffer.from('mirror:mirror-pass-4q').toString('base64') } } }));
});

afterAll(async () => {
  await proxy?.stop();
  await src?.stop();
  await dst?.stop();
  await tokens?.stop();
  repo?.cleanup();
});

const env = () => ({ DOCKER_CONFIG: dockerDir });
const dstClient = () => new RegistryClient({ cacheDir: false, env: env() });

function snapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of files(join(GOLDEN, 'before'))) out[f] = readFileSync(join(repo.dir, f), 'utf8');
  return out;
}

describe('mirror', () => {
  it('--dry-run copies nothing and shows the whole rewrite', async () => {
    layTree(src.host);
    const r = await runCli(['mirror', '--from', `${src.host}/acme/ci`, '--to', `${dst.host}/mirror/acme`, '--rewrite', '--dry-run', '--format', 'json'], { cwd: repo.dir, env: env() });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.images.map((i: { repository: string; action: string }) => `${i.repository} ${i.action}`)).toEqual([`${src.host}/acme/ci/app planned`, `${src.host}/acme/ci/charts/app planned`]);
    expect(doc.rewrite.written).toBe(false);
    expect(doc.rewrite.changes).toHaveLength(10);
    expect(doc.rewrite.remaining).toEqual([{ file: 'docs/release.md', line: 1, text: `Nightlies are pushed to ${src.host}/acme/ci first.`, kind: 'text' }]);
    expect(snapshot()['images/app.tag']).toBe(`${src.host}/acme/ci/app:v1@${IDX}\n`);
    await expect(dstClient().headManifest({ domain: dst.host, path: 'mirror/acme/app' }, IDX)).rejects.toMatchObject({ status: 404 });
  });

  it('copies an index with two platforms and an attestation by digest, verifies, and rewrites every shape byte-minimally', async () => {
    layTree(src.host);
    const r = await runCli(['mirror', '--from', `${src.host}/acme/ci`, '--to', `${dst.host}/mirror/acme`, '--rewrite', '--format', 'json'], { cwd: repo.dir, env: env() });
    expect(r.err).toBe('');
    const doc = JSON.parse(r.out);
    expect(doc.refused).toBeUndefined();
    expect(r.code).toBe(0);
    const app = doc.images.find((i: { repository: string }) => i.repository.endsWith('/ci/app'));
    expect(app.action).toBe('copied');
    expect(app.stats.manifests).toBe(4); // the index and its three children
    const c = dstClient();
    const to = { domain: dst.host, path: 'mirror/acme/app' };
    const index = await c.getManifest(to, IDX);
    expect(index.digest).toBe(IDX);
    for (const child of children) expect((await c.headManifest(to, child)).digest).toBe(child);
    for (const b of blobs) expect(await blobExists(c, to, b)).toBe(true);
    expect((await c.headManifest(to, 'v1')).digest).toBe(IDX);
    expect((await c.headManifest({ domain: dst.host, path: 'mirror/acme/charts/app' }, CHART)).digest).toBe(CHART);
    // the tree: exactly the golden `after`, file by file
    for (const f of files(join(GOLDEN, 'after'))) {
      expect(readFileSync(join(repo.dir, f), 'utf8'), f).toBe(fill(readFileSync(join(GOLDEN, 'after', f), 'utf8'), src.host));
    }
    expect(doc.rewrite.remaining).toEqual([{ file: 'docs/release.md', line: 1, text: `Nightlies are pushed to ${src.host}/acme/ci first.`, kind: 'text' }]);
    expect(r.out).not.toContain('mirror-pass-4q');
    // a rerun: everything present, nothing left to rewrite
    const again = await runCli(['mirror', '--from', `${src.host}/acme/ci`, '--to', `${dst.host}/mirror/acme`, '--rewrite', '--format', 'json'], { cwd: repo.dir, env: env() });
    expect(again.code).toBe(1);
    expect(JSON.parse(again.out).refused).toMatch(/no first-party image is pinned under/);
  });

  it('a copy failure leaves the tree untouched', async () => {
    layTree(proxy.host);
    const before = snapshot();
    proxy.fault = (req) => (req.method === 'GET' && req.url?.includes('/blobs/') ? { kind: 'respond', status: 500 } : { kind: 'pass' });
    try {
      const r = await runCli(['mirror', '--from', `${proxy.host}/acme/ci`, '--to', `${dst.host}/failed/acme`, '--rewrite', '--format', 'json'], { cwd: repo.dir, env: env() });
      expect(r.code).toBe(1);
      const doc = JSON.parse(r.out);
      expect(doc.refused).toMatch(/copy\(ies\) failed; the tree was not rewritten/);
      expect(doc.images.some((i: { action: string }) => i.action === 'failed')).toBe(true);
      expect(doc.rewrite).toBeUndefined();
      expect(snapshot()).toEqual(before);
      expect(repo.git('status', '--porcelain')).toBe('');
    } finally {
      proxy.fault = () => ({ kind: 'pass' });
    }
  });

  it('a kill in the middle of a copy leaves the tree untouched, and the next run finishes', async () => {
    expect(existsSync(CLI), 'run npm run build first').toBe(true);
    layTree(proxy.host);
    const before = snapshot();
    proxy.seen.length = 0;
    proxy.fault = (req) => (req.method === 'GET' && req.url?.includes('/blobs/') ? { kind: 'delay', ms: 30_000 } : { kind: 'pass' });
    const child = spawn(process.execPath, [CLI, 'mirror', '--repo', repo.dir, '--from', `${proxy.host}/acme/ci`, '--to', `${dst.host}/killed/acme`, '--rewrite', '--no-cache'], {
      env: { ...process.env, DOCKER_CONFIG: dockerDir },
      stdio: 'ignore',
    });
    try {
      const deadline = Date.now() + 20_000;
      while (!proxy.seen.some((s) => s.startsWith('GET') && s.includes('/blobs/')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(proxy.seen.some((s) => s.includes('/blobs/'))).toBe(true);
      const exited = new Promise<number | null>((r) => child.once('exit', (_code, signal) => r(signal === 'SIGKILL' ? -9 : _code)));
      process.kill(child.pid!, 'SIGKILL');
      expect(await exited).toBe(-9);
    } finally {
      proxy.fault = () => ({ kind: 'pass' });
    }
    expect(snapshot()).toEqual(before);
    expect(repo.git('status', '--porcelain')).toBe('');
    const r = await runCli(['mirror', '--from', `${proxy.host}/acme/ci`, '--to', `${dst.host}/killed/acme`, '--rewrite', '--format', 'json'], { cwd: repo.dir, env: env() });
    expect(r.code).toBe(0);
    expect(readFileSync(join(repo.dir, 'images/app.tag'), 'utf8')).toBe(`${dst.host}/killed/acme/app:v1@${IDX}\n`);
  });
});
