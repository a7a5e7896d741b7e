/**
 * Hostile registries (issue 16): redirects to plain HTTP elsewhere, Link pages
 * pointing elsewhere, endless and oversized bodies, a body that stalls, garbage
 * Bearer realms. A real docker-registry behind a node:http front where the
 * registry itself would not misbehave; "elsewhere" is 127.0.0.2 — every
 * connection stays on loopback, and a refused hop must not even be attempted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_MANIFEST_BYTES, RegistryClient, RegistryError, registryProvenance } from '../../src/registry/index.js';
import { runCli } from '../support/io.js';
import { makeRepo } from '../support/repo.js';
import type { FaultAction, FaultProxy, PushedImage, TestRegistry } from '../support/registry.js';
import { pushImage, sha256, startFaultProxy, startRegistry } from '../support/registry.js';

const COMMIT = '2'.repeat(40);
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const work = mkdtempSync(join(tmpdir(), 'pinwatch-hostile-'));

interface Server {
  host: string;
  url: string;
  /** TCP connections accepted so far. */
  connections: number;
  /** Authorization headers received, '' when absent. */
  authorizations: string[];
  stop(): Promise<void>;
}

async function serve(address: string, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const state = { connections: 0, authorizations: [] as string[] };
  const server = createServer((req, res) => {
    state.authorizations.push(req.headers.authorization ?? '');
    handler(req, res);
  });
  server.on('connection', () => state.connections++);
  await new Promise<void>((r) => server.listen(0, address, r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    host: `${address}:${port}`,
    url: `http://${address}:${port}`,
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}

async function failure(p: Promise<unknown>): Promise<RegistryError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(RegistryError);
  return e as RegistryError;
}

const EVIL_BODY = JSON.stringify({ schemaVersion: 2, mediaType: OCI_MANIFEST, config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha256('x'), size: 1 }, layers: [] });

let reg: TestRegistry;
let image: PushedImage;
let front: FaultProxy;
let evil: Server;

beforeAll(async () => {
  reg = await startRegistry();
  image = await pushImage(reg, 'team/app', 'v1', { labels: { 'org.opencontainers.image.revision': COMMIT } });
  front = await startFaultProxy(reg);
  evil = await serve('127.0.0.2', (_req, res) => {
    res.writeHead(200, { 'Content-Type': OCI_MANIFEST }).end(EVIL_BODY);
  });
});

afterAll(async () => {
  await front?.stop();
  await evil?.stop();
  await reg?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('redirects (defect 9)', () => {
  const toEvil = () => (req: IncomingMessage) =>
    req.url?.includes('/manifests/') ? ({ kind: 'respond', status: 302, headers: { Location: `${evil.url}${req.url}` } } as const) : ({ kind: 'pass' } as const);

  it('refuses a redirect to plain HTTP on another host, without connecting to it', async () => {
    front.fault = toEvil();
    const before = evil.connections;
    const e = await failure(new RegistryClient({ cacheDir: false }).getManifest({ domain: front.host, path: 'team/app' }, 'v1'));
    expect(e.code).toBe('redirect-refused');
    expect(e.message).toContain(`refusing plain-http ${evil.url}/v2/team/app/manifests/v1 (a redirect from ${front.url}/v2/team/app/manifests/v1)`);
    const cli = await runCli(['inspect', `${front.host}/team/app:v1`, '--format', 'json']);
    expect(cli.code).toBe(2);
    expect(cli.out).toBe('');
    expect(cli.err).toContain('refusing plain-http');
    expect(cli.err).not.toContain(sha256(EVIL_BODY));
    expect(evil.connections).toBe(before);
  });

  it('repin --to-tag does not write the digest the other host would serve', async () => {
    front.fault = toEvil();
    const before = evil.connections;
    const repo = makeRepo('pinwatch-hostile-repin-');
    try {
      const pinned = `app:\n  image: ${front.host}/team/app:v0@${image.digest}\n`;
      repo.commit({ 'deploy/values.yaml': pinned }, 'pin');
      const r = await runCli(['repin', `${front.host}/team/app`, '--to-tag', 'v1', '--no-cache'], { cwd: repo.dir });
      expect(r.code).toBe(2);
      expect(r.err).toContain('refusing plain-http');
      expect(readFileSync(join(repo.dir, 'deploy/values.yaml'), 'utf8')).toBe(pinned);
      expect(evil.connections).toBe(before);
    } finally {
      repo.cleanup();
    }
  });

  it('follows it when that host is listed with --insecure-registry', async () => {
    front.fault = toEvil();
    const client = new RegistryClient({ cacheDir: false, insecureRegistries: [evil.host] });
    const m = await client.getManifest({ domain: front.host, path: 'team/app' }, 'v1');
    expect(m.digest).toBe(sha256(EVIL_BODY));
  });

  it('follows a same-host redirect to blob storage, without sending Authorization there', async () => {
    const storage = await startFaultProxy(reg);
    const seenByStorage: string[] = [];
    storage.fault = (req) => {
      seenByStorage.push(req.headers.authorization ?? '');
      return { kind: 'pass' };
    };
    // The front demands Basic credentials and sends blobs to "storage" (same hostname, another port), as distribution does with S3.
    front.fault = (req): FaultAction => {
      if (!req.headers.authorization) return { kind: 'respond', status: 401, headers: { 'WWW-Authenticate': 'Basic realm="test"' } };
      if (req.url?.includes('/blobs/')) return { kind: 'respond', status: 307, headers: { Location: `${storage.url}${req.url}` } };
      return { kind: 'pass' };
    };
    try {
      const dir = join(work, 'docker');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ auths: { [front.host]: { auth: Buffer.from('u:pw-Zq9x').toString('base64') } } }));
      const p = await registryProvenance(`${front.host}/team/app:v1`, { cacheDir: false, env: { DOCKER_CONFIG: dir } });
      expect(p.commit).toBe(COMMIT);
      expect(storage.seen).toEqual([`GET /v2/team/app/blobs/${image.configDigest}`]);
      expect(seenByStorage).toEqual(['']);
    } finally {
      await storage.stop();
    }
  });

  it('refuses a tag-list Link page on another plain-HTTP host', async () => {
    front.fault = (req) =>
      req.url?.includes('/tags/list')
        ? { kind: 'respond', status: 200, headers: { Link: `<${evil.url}/v2/team/app/tags/list?last=v1>; rel="next"` }, body: '{"tags":["v1"]}' }
        : { kind: 'pass' };
    const before = evil.connections;
    const e = await failure(new RegistryClient({ cacheDir: false }).listTags({ domain: front.host, path: 'team/app' }));
    expect(e.code).toBe('redirect-refused');
    expect(evil.connections).toBe(before);
  });

  it('stops after a bounded number of hops', async () => {
    front.fault = (req) => ({ kind: 'respond', status: 302, headers: { Location: `${req.url}x` } });
    const e = await failure(new RegistryClient({ cacheDir: false }).getManifest({ domain: front.host, path: 'team/app' }, 'v1'));
    expect(e.code).toBe('redirect-refused');
    expect(e.message).toMatch(/redirected more than 5 times/);
  });
});

describe('body size caps (defect 13)', () => {
  let endless: Server;
  let stalls: Server;
  beforeAll(async () => {
    // Streams a manifest (or blob) that never ends; with ?length the Content-Length claims 6 GB.
    endless = await serve('127.0.0.1', (req, res) => {
      const headers: Record<string, string> = { 'Content-Type': OCI_MANIFEST };
      if (req.url?.includes('declared')) headers['Content-Length'] = String(6 * 1024 ** 3);
      res.writeHead(200, headers);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (res.write(chunk));
        res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    });
    // Sends half a manifest, then nothing.
    stalls = await serve('127.0.0.1', (_req, res) => {
      res.writeHead(200, { 'Content-Type': OCI_MANIFEST, 'Content-Length': '4096' });
      res.write('{"schemaVersion":2,');
    });
  });
  afterAll(async () => {
    await endless?.stop();
    await stalls?.stop();
  });

  it('stops reading an endless manifest at the 4 MiB cap, fast', async () => {
    const started = Date.now();
    const e = await failure(new RegistryClient({ cacheDir: false, timeoutMs: 60_000 }).getManifest({ domain: endless.host, path: 'team/app' }, 'v1'));
    expect(e.code).toBe('manifest-too-large');
    expect(e.message).toBe(`the manifest at ${endless.url}/v2/team/app/manifests/v1 is more than ${MAX_MANIFEST_BYTES} bytes, over pinwatch's limit of ${MAX_MANIFEST_BYTES} bytes; refusing it`);
    expect(Date.now() - started).toBeLessThan(5000);
  }, 10_000);

  it('refuses a declared 6 GB body before reading it', async () => {
    const e = await failure(new RegistryClient({ cacheDir: false, timeoutMs: 60_000 }).getManifest({ domain: endless.host, path: 'declared' }, 'v1'));
    expect(e.code).toBe('manifest-too-large');
    expect(e.message).toContain(`is ${6 * 1024 ** 3} bytes (Content-Length)`);
  }, 10_000);

  it('caps blobs too', async () => {
    const e = await failure(new RegistryClient({ cacheDir: false, timeoutMs: 60_000 }).getBlob({ domain: endless.host, path: 'team/app' }, sha256('x')));
    expect(e.code).toBe('blob-too-large');
  }, 10_000);

  it('the CLI prints a typed one-line error', async () => {
    const cli = await runCli(['inspect', `${endless.host}/team/app:v1`, '--timeout', '60000']);
    expect(cli.code).toBe(2);
    expect(cli.err).toMatch(/^pinwatch: \[manifest-too-large\] the manifest at http:\/\/127\.0\.0\.1:\d+\/v2\/team\/app\/manifests\/v1 is more than 4194304 bytes/);
    expect(cli.err).not.toContain('internal error');
  }, 10_000);

  describe('a body that stalls (defect 14)', () => {
    it('times out the body read with the URL, not "internal error"', async () => {
      const started = Date.now();
      const e = await failure(new RegistryClient({ cacheDir: false, timeoutMs: 400 }).getManifest({ domain: stalls.host, path: 'team/app' }, 'v1'));
      expect(e.code).toBe('registry-timeout');
      expect(e.message).toBe(`GET ${stalls.url}/v2/team/app/manifests/v1 timed out after 400 ms (the body did not arrive in time)`);
      expect(Date.now() - started).toBeLessThan(3000);
      const cli = await runCli(['inspect', `${stalls.host}/team/app:v1`, '--timeout', '400']);
      expect(cli.code).toBe(2);
      expect(cli.err).toBe(`pinwatch: [registry-timeout] GET ${stalls.url}/v2/team/app/manifests/v1 timed out after 400 ms (the body did not arrive in time)\n`);
    }, 10_000);
  });
});

describe('a registry error text', () => {
  it('is quoted at most 300 characters long', async () => {
    const chatty = await serve('127.0.0.1', (_req, res) => {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ errors: [{ code: 'MANIFEST_UNKNOWN', message: 'x'.repeat(100_000) }] }));
    });
    try {
      const e = await failure(new RegistryClient({ cacheDir: false }).getManifest({ domain: chatty.host, path: 'team/app' }, 'v1'));
      expect(e.code).toBe('manifest-unknown');
      expect(e.message).toBe(`GET ${chatty.url}/v2/team/app/manifests/v1 answered HTTP 404 (MANIFEST_UNKNOWN: ${'x'.repeat(300)}…)`);
    } finally {
      await chatty.stop();
    }
  });
});

describe('garbage Bearer realms (defect 14)', () => {
  let challenger: Server;
  let realm = '';
  beforeAll(async () => {
    challenger = await serve('127.0.0.1', (_req, res) => {
      res.writeHead(401, { 'WWW-Authenticate': `Bearer realm="${realm}",service="test"`, 'Content-Type': 'application/json' }).end('{"errors":[{"code":"UNAUTHORIZED"}]}');
    });
  });
  afterAll(async () => {
    await challenger?.stop();
  });

  it.each([
    ['not a URL', '::not a url::'],
    ['not http(s)', 'file:///etc/passwd'],
  ])('types a realm that is %s as token-error naming the registry URL', async (_what, garbage) => {
    realm = garbage;
    const e = await failure(new RegistryClient({ cacheDir: false }).getManifest({ domain: challenger.host, path: 'team/app' }, 'v1'));
    expect(e.code).toBe('token-error');
    const cli = await runCli(['inspect', `${challenger.host}/team/app:v1`]);
    expect(cli.code).toBe(2);
    expect(cli.err).toBe(`pinwatch: [token-error] ${challenger.url}/v2/team/app/manifests/v1 sent a token challenge whose realm is not an http(s) URL: ${JSON.stringify(garbage)}\n`);
  });
});
