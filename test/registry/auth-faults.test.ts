/**
 * Token auth (challenge, insufficient scope, expired tokens), basic auth from a
 * docker config file, injected faults (500, 429, slow, corrupted manifest,
 * registry stopped) — and no password or token in any message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import { RegistryClient, RegistryError, registryProvenance } from '../../src/registry/index.js';
import type { FaultProxy, TestRegistry } from '../support/registry.js';
import { pushImage, startFaultProxy, startRegistry } from '../support/registry.js';
import type { TokenServer } from '../support/token-server.js';
import { startTokenServer } from '../support/token-server.js';

const COMMIT = '1'.repeat(40);
const PASSWORD = 's3cret-pass-Zq9';
const captured: string[] = [];
const work = mkdtempSync(join(tmpdir(), 'pinwatch-auth-'));

function dockerConfig(host: string, user: string, password: string): Record<string, string> {
  const dir = join(work, `docker-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir, { recursive: true });
  const auth = Buffer.from(`${user}:${password}`).toString('base64');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ auths: { [host]: { auth } } }));
  return { DOCKER_CONFIG: dir };
}

async function failure(p: Promise<unknown>): Promise<RegistryError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(RegistryError);
  const r = e as RegistryError;
  captured.push(r.message, String(r.url), r.stack ?? '', JSON.stringify(r));
  return r;
}

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('token auth', () => {
  let tokens: TokenServer;
  let reg: TestRegistry;
  beforeAll(async () => {
    tokens = await startTokenServer();
    tokens.users = { alice: PASSWORD };
    reg = await startRegistry({ token: tokens });
    reg.pushAuth = (repo) => `Bearer ${tokens.mint('pusher', repo, ['pull', 'push'])}`;
    await pushImage(reg, 'team/app', 'v1', { labels: { 'org.opencontainers.image.revision': COMMIT } });
    await pushImage(reg, 'team/secret', 'v1', {});
  });
  afterAll(async () => {
    await reg?.stop();
    await tokens?.stop();
  });

  it('answers the Bearer challenge and caches the token per scope', async () => {
    const client = new RegistryClient({ cacheDir: false, env: dockerConfig(reg.host, 'alice', PASSWORD) });
    const before = tokens.requests;
    const p = await registryProvenance(`${reg.host}/team/app:v1`, { client });
    expect(p.commit).toBe(COMMIT);
    await client.getManifest({ domain: reg.host, path: 'team/app' }, 'v1');
    expect(tokens.requests - before).toBe(1);
  });

  it('shares one token fetch between parallel requests for the same scope', async () => {
    const client = new RegistryClient({ cacheDir: false });
    const before = tokens.requests;
    await Promise.all(Array.from({ length: 5 }, () => client.headManifest({ domain: reg.host, path: 'team/app' }, 'v1')));
    expect(tokens.requests - before).toBe(1);
  });

  it('types a scope the token server does not grant as insufficient-scope', async () => {
    tokens.policy = (_user, repo, wanted) => (repo === 'team/secret' ? [] : wanted.filter((a) => a === 'pull'));
    const client = new RegistryClient({ cacheDir: false, env: dockerConfig(reg.host, 'alice', PASSWORD) });
    const e = await failure(client.getManifest({ domain: reg.host, path: 'team/secret' }, 'v1'));
    expect(e.code).toBe('insufficient-scope');
    expect(e.status).toBe(401);
    expect(e.message).toContain('repository:team/secret:pull');
  });

  it('refetches a token past its expiry, and types a rejected expired token as unauthorized', async () => {
    tokens.policy = (_u, _r, wanted) => wanted.filter((a) => a === 'pull');
    let now = Date.now();
    const client = new RegistryClient({ cacheDir: false, now: () => now });
    tokens.expiresIn = 5;
    const before = tokens.requests;
    await client.headManifest({ domain: reg.host, path: 'team/app' }, 'v1');
    now += 10_000;
    await client.headManifest({ domain: reg.host, path: 'team/app' }, 'v1');
    expect(tokens.requests - before).toBe(2);

    tokens.lifetimeSeconds = -120; // every token is already expired
    const e = await failure(new RegistryClient({ cacheDir: false }).getManifest({ domain: reg.host, path: 'team/app' }, 'v1'));
    tokens.lifetimeSeconds = 300;
    expect(e.code).toBe('unauthorized');
    expect(e.registryCodes).toContain('UNAUTHORIZED');
    expect(e.message).toMatch(/invalid_token/);
  });

  it('types wrong credentials as a token error without echoing them', async () => {
    const client = new RegistryClient({ cacheDir: false, env: dockerConfig(reg.host, 'alice', 'wrong-password-123') });
    const e = await failure(client.getManifest({ domain: reg.host, path: 'team/app' }, 'v1'));
    expect(e.code).toBe('token-error');
    expect(e.message).toMatch(/rejected the credentials/);
    expect(e.message).not.toContain('wrong-password-123');
  });

  it('the CLI prints no token or password on success or failure (stdout, stderr)', async () => {
    const cases = [
      dockerConfig(reg.host, 'alice', PASSWORD),
      dockerConfig(reg.host, 'alice', 'wrong-password-123'),
      {},
    ];
    tokens.policy = (_user, repo, wanted) => (repo === 'team/secret' ? [] : wanted.filter((a) => a === 'pull'));
    const codes: number[] = [];
    for (const env of cases) {
      for (const args of [['inspect', `${reg.host}/team/app:v1`, '--no-cache'], ['--format', 'json', 'inspect', `${reg.host}/team/secret:v1`, '--no-cache']]) {
        codes.push(await main(args, { out: (t) => captured.push(t), err: (t) => captured.push(t), env: { ...env, PINWATCH_DEBUG: '1' }, cwd: work }));
      }
    }
    expect(codes).toEqual([0, 2, 2, 2, 0, 2]);
    expect(captured.join('\n')).toContain(COMMIT);
  });

  it('never puts a token or password in a message', () => {
    expect(tokens.issued.length).toBeGreaterThan(0);
    const text = captured.join('\n');
    for (const secret of [...tokens.issued, PASSWORD, 'wrong-password-123', Buffer.from(`alice:${PASSWORD}`).toString('base64')]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('basic auth from a docker config (htpasswd registry)', () => {
  let reg: TestRegistry | undefined;
  let unavailable = '';
  beforeAll(async () => {
    let hash = '';
    try {
      // distribution's htpasswd needs bcrypt; libxcrypt's crypt(3) makes it ($2b$).
      hash = execFileSync('perl', ['-e', 'print crypt($ARGV[0], q($2b$05$abcdefghijklmnopqrstuu))', PASSWORD], { encoding: 'utf8' });
    } catch (e) {
      unavailable = `perl crypt with bcrypt is unavailable: ${(e as Error).message}`;
    }
    if (!hash.startsWith('$2b$')) {
      unavailable ||= `crypt(3) did not produce a bcrypt hash (got "${hash.slice(0, 4)}")`;
      return;
    }
    const file = join(work, 'htpasswd');
    writeFileSync(file, `bob:${hash}\n`);
    reg = await startRegistry({ htpasswd: { file } });
    const header = `Basic ${Buffer.from(`bob:${PASSWORD}`).toString('base64')}`;
    reg.pushAuth = () => header;
    await pushImage(reg, 'team/basic', 'v1', { labels: { 'org.opencontainers.image.revision': COMMIT } });
  });
  afterAll(async () => {
    await reg?.stop();
  });

  it('reads credentials from $DOCKER_CONFIG/config.json and answers the Basic challenge', async () => {
    expect(unavailable).toBe('');
    const p = await registryProvenance(`${reg!.host}/team/basic:v1`, { cacheDir: false, env: dockerConfig(reg!.host, 'bob', PASSWORD) });
    expect(p.commit).toBe(COMMIT);
  });

  it('reads ~/.docker/config.json when DOCKER_CONFIG is unset', async () => {
    const home = join(work, 'home');
    mkdirSync(join(home, '.docker'), { recursive: true });
    writeFileSync(join(home, '.docker', 'config.json'), JSON.stringify({ auths: { [reg!.host]: { auth: Buffer.from(`bob:${PASSWORD}`).toString('base64') } } }));
    const p = await registryProvenance(`${reg!.host}/team/basic:v1`, { cacheDir: false, env: { HOME: home } });
    expect(p.commit).toBe(COMMIT);
  });

  it('says so when the docker config delegates to a credential helper it does not run', async () => {
    const dir = join(work, 'helper');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ auths: {}, credsStore: 'desktop' }));
    const e = await failure(new RegistryClient({ cacheDir: false, env: { DOCKER_CONFIG: dir } }).getManifest({ domain: reg!.host, path: 'team/basic' }, 'v1'));
    expect(e.code).toBe('unauthorized');
    expect(e.message).toMatch(/delegates credentials to the "desktop" credential helper, which pinwatch does not run/);
  });

  it('types missing and wrong credentials as unauthorized without echoing them', async () => {
    const none = await failure(new RegistryClient({ cacheDir: false }).getManifest({ domain: reg!.host, path: 'team/basic' }, 'v1'));
    expect(none.code).toBe('unauthorized');
    expect(none.message).toMatch(/DOCKER_CONFIG/);
    const wrong = await failure(
      new RegistryClient({ cacheDir: false, env: dockerConfig(reg!.host, 'bob', 'nope-wrong-pw') }).getManifest({ domain: reg!.host, path: 'team/basic' }, 'v1'),
    );
    expect(wrong.code).toBe('unauthorized');
    const text = captured.join('\n');
    for (const s of [PASSWORD, 'nope-wrong-pw', Buffer.from(`bob:${PASSWORD}`).toString('base64'), Buffer.from('bob:nope-wrong-pw').toString('base64')]) {
      expect(text).not.toContain(s);
    }
  });
});

describe('faults', () => {
  let reg: TestRegistry;
  let proxy: FaultProxy;
  let digest: string;
  beforeAll(async () => {
    reg = await startRegistry();
    digest = (await pushImage(reg, 'team/app', 'v1', { labels: { 'org.opencontainers.image.revision': COMMIT } })).digest;
    proxy = await startFaultProxy(reg);
  });
  afterAll(async () => {
    await proxy?.stop();
    await reg?.stop();
  });
  const repo = () => ({ domain: proxy.host, path: 'team/app' });

  it('retries 500 and 429 with backoff, then succeeds', async () => {
    proxy.fault = (_req, n) => (n === 1 ? { kind: 'respond', status: 500 } : n === 2 ? { kind: 'respond', status: 429, headers: { 'Retry-After': '0' } } : { kind: 'pass' });
    proxy.seen.length = 0;
    const m = await new RegistryClient({ cacheDir: false, retryBaseMs: 10 }).getManifest(repo(), 'v1');
    expect(m.digest).toBe(digest);
    expect(proxy.seen).toHaveLength(3);
  });

  it('gives up after the bounded retries with a typed error carrying the status and registry codes', async () => {
    proxy.fault = () => ({ kind: 'respond', status: 503, body: '{"errors":[{"code":"UNAVAILABLE","message":"try later"}]}' });
    proxy.seen.length = 0;
    const e = await failure(new RegistryClient({ cacheDir: false, retries: 2, retryBaseMs: 10 }).getManifest(repo(), 'v1'));
    expect(proxy.seen).toHaveLength(3);
    expect(e).toMatchObject({ code: 'registry-retries-exhausted', status: 503, registryCodes: ['UNAVAILABLE'] });
    expect(e.message).toMatch(/after 3 attempt/);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    proxy.fault = () => ({ kind: 'delay', ms: 150 });
    proxy.maxInFlight = 0;
    const client = new RegistryClient({ cacheDir: false, concurrency: 2 });
    await Promise.all(Array.from({ length: 6 }, () => client.headManifest(repo(), 'v1')));
    expect(proxy.maxInFlight).toBe(2);
    proxy.maxInFlight = 0;
    const wide = new RegistryClient({ cacheDir: false, concurrency: 6 });
    await Promise.all(Array.from({ length: 6 }, () => wide.headManifest(repo(), 'v1')));
    expect(proxy.maxInFlight).toBeGreaterThan(2);
  });

  it('times out a slow response', async () => {
    proxy.fault = () => ({ kind: 'delay', ms: 3000 });
    const started = Date.now();
    const e = await failure(new RegistryClient({ cacheDir: false, timeoutMs: 300 }).getManifest(repo(), 'v1'));
    expect(e.code).toBe('registry-timeout');
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('rejects a manifest whose body does not match its digest, by tag and by digest', async () => {
    proxy.fault = () => ({ kind: 'corrupt' });
    const byTag = await failure(new RegistryClient({ cacheDir: false }).getManifest(repo(), 'v1'));
    expect(byTag.code).toBe('digest-mismatch');
    expect(byTag.message).toContain(digest);
    const byDigest = await failure(new RegistryClient({ cacheDir: false }).getManifest(repo(), digest));
    expect(byDigest.code).toBe('digest-mismatch');
    const viaProvenance = await failure(registryProvenance(`${proxy.host}/team/app:v1`, { cacheDir: false }));
    expect(viaProvenance.code).toBe('digest-mismatch');
  });

  it('says clearly when the registry stops mid-run', async () => {
    const direct = { domain: reg.host, path: 'team/app' };
    const client = new RegistryClient({ cacheDir: false, retries: 1, retryBaseMs: 10 });
    await client.getManifest(direct, 'v1');
    await reg.stop(); // the real registry process, by its pid
    const e = await failure(client.getManifest(direct, digest));
    expect(e.code).toBe('registry-unreachable');
    expect(e.message).toMatch(/failed after 2 attempt\(s\): connection refused \(is the registry running\?\)/);
    expect(e.message).toContain(`http://${reg.host}/v2/team/app/manifests/${digest}`);
  });
});
