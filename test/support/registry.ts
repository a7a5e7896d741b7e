/**
 * A real OCI registry for tests: Debian's `docker-registry` (distribution 2.8.2)
 * on 127.0.0.1 and a free port, filesystem storage in a temp folder, stopped by
 * its process id. Helpers push small images with labels through the API (POST
 * then PUT blobs, PUT manifest), OCI indexes with platforms and attestations, and
 * a fault proxy (node:http) that injects 5xx/429, delays and corrupted bodies.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const REGISTRY_BIN = '/usr/bin/docker-registry';
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';

// Ports Node's fetch refuses (WHATWG "bad ports") at or above 1024.
const BAD_PORTS = new Set([1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080]);

export interface TestRegistry {
  /** `127.0.0.1:PORT`, as written in refs. */
  host: string;
  url: string;
  dir: string;
  pid: number;
  /** Header to push with (token registries need a push-scoped token). */
  pushAuth?: (repository: string) => string;
  stop(): Promise<void>;
}

export interface RegistryAuthConfig {
  token?: { realm: string; service: string; issuer: string; certFile: string };
  htpasswd?: { file: string };
}

export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const s = createNetServer();
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    if (!BAD_PORTS.has(port)) return port;
  }
}

export function requireRegistryBinary(): void {
  if (!existsSync(REGISTRY_BIN)) {
    throw new Error(`${REGISTRY_BIN} is missing: these tests run a real registry. Install it with: apt-get install -y docker-registry`);
  }
}

/** Start a registry; a port taken between choosing and binding (parallel test files) is retried. */
export async function startRegistry(auth: RegistryAuthConfig = {}): Promise<TestRegistry> {
  requireRegistryBinary();
  for (let attempt = 1; ; attempt++) {
    try {
      return await startRegistryOnce(auth);
    } catch (e) {
      if (attempt >= 3 || !/address already in use/.test((e as Error).message)) throw e;
    }
  }
}

async function startRegistryOnce(auth: RegistryAuthConfig): Promise<TestRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-registry-'));
  const port = await freePort();
  const lines = [
    'version: 0.1',
    'log: { level: error, accesslog: { disabled: true } }',
    'storage:',
    `  filesystem: { rootdirectory: ${join(dir, 'data')} }`,
    '  delete: { enabled: true }',
    'http:',
    `  addr: 127.0.0.1:${port}`,
    '  secret: pinwatch-test-secret',
  ];
  if (auth.token) {
    const t = auth.token;
    lines.push('auth:', '  token:', `    realm: ${t.realm}`, `    service: ${t.service}`, `    issuer: ${t.issuer}`, `    rootcertbundle: ${t.certFile}`);
  }
  if (auth.htpasswd) lines.push('auth:', '  htpasswd:', '    realm: pinwatch-test', `    path: ${auth.htpasswd.file}`);
  const config = join(dir, 'config.yml');
  writeFileSync(config, `${lines.join('\n')}\n`);
  const child = spawn(REGISTRY_BIN, ['serve', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUp(url, child, () => stderr);
  } catch (e) {
    await stopChild(child, dir);
    throw e;
  }
  return {
    host: `127.0.0.1:${port}`,
    url,
    dir,
    pid: child.pid!,
    stop: () => stopChild(child, dir),
  };
}

async function waitUp(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`docker-registry exited with ${child.exitCode}: ${stderr()}`);
    try {
      const res = await fetch(`${url}/v2/`);
      if (res.status === 200 || res.status === 401) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`docker-registry did not answer ${url}/v2/ within 15 s: ${stderr()}`);
}

async function stopChild(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null && child.pid) {
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    process.kill(child.pid, 'SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
}

export function sha256(body: Uint8Array | string): string {
  return `sha256:${createHash('sha256').update(body).digest('hex')}`;
}

async function check(res: Response, what: string): Promise<Response> {
  if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${await res.text()}`);
  return res;
}

export async function pushBlob(reg: TestRegistry, repository: string, body: Uint8Array, authHeader?: string): Promise<string> {
  const digest = sha256(body);
  const headers: Record<string, string> = authHeader ? { Authorization: authHeader } : {};
  const post = await check(await fetch(`${reg.url}/v2/${repository}/blobs/uploads/`, { method: 'POST', headers }), 'POST upload');
  const location = new URL(post.headers.get('location') ?? '', reg.url);
  location.searchParams.set('digest', digest);
  await check(
    await fetch(location, { method: 'PUT', headers: { ...headers, "Content-Type": "application/octet-stream" }, body: Buffer.from(body) as unknown as BodyInit }),
    'PUT blob',
  );
  return digest;
}

export async function pushManifest(reg: TestRegistry, repository: string, reference: string, manifest: object | string, mediaType: string, authHeader?: string): Promise<string> {
  const body = typeof manifest === 'string' ? manifest : JSON.stringify(manifest);
  const headers: Record<string, string> = { 'Content-Type': mediaType };
  if (authHeader) headers.Authorization = authHeader;
  const res = await check(await fetch(`${reg.url}/v2/${repository}/manifests/${reference}`, { method: 'PUT', headers, body }), 'PUT manifest');
  return res.headers.get('docker-content-digest') ?? sha256(body);
}

export interface PushImageOptions {
  labels?: Record<string, string>;
  os?: string;
  architecture?: string;
  annotations?: Record<string, string>;
  /** Extra bytes in the layer so images differ. */
  content?: string;
  /** Push only by digest (for index children). */
  untagged?: boolean;
}

export interface PushedImage {
  digest: string;
  configDigest: string;
  size: number;
}

/** Push a one-layer OCI image with config labels; tag it unless `untagged`. */
export async function pushImage(reg: TestRegistry, repository: string, tag: string, opts: PushImageOptions = {}): Promise<PushedImage> {
  const auth = reg.pushAuth?.(repository);
  const layer = gzipSync(Buffer.from(opts.content ?? `${repository}:${tag}`), { level: 9 });
  const layerDigest = await pushBlob(reg, repository, layer, auth);
  const config = Buffer.from(
    JSON.stringify({
      architecture: opts.architecture ?? 'amd64',
      os: opts.os ?? 'linux',
      created: '2026-01-01T00:00:00Z',
      config: { Labels: opts.labels ?? {} },
      rootfs: { type: 'layers', diff_ids: [sha256(Buffer.from(opts.content ?? `${repository}:${tag}`))] },
    }),
  );
  const configDigest = await pushBlob(reg, repository, config, auth);
  const manifest: Record<string, unknown> = {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: configDigest, size: config.length },
    layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: layerDigest, size: layer.length }],
  };
  if (opts.annotations) manifest.annotations = opts.annotations;
  const body = JSON.stringify(manifest);
  const digest = await pushManifest(reg, repository, opts.untagged ? sha256(body) : tag, body, OCI_MANIFEST, auth);
  return { digest, configDigest, size: body.length };
}

export interface IndexEntry {
  image: PushedImage;
  platform?: { os: string; architecture: string };
  annotations?: Record<string, string>;
}

/** Push an OCI index over already pushed manifests. */
export async function pushIndex(reg: TestRegistry, repository: string, tag: string, entries: IndexEntry[], annotations?: Record<string, string>): Promise<string> {
  const index: Record<string, unknown> = {
    schemaVersion: 2,
    mediaType: OCI_INDEX,
    manifests: entries.map((e) => ({
      mediaType: OCI_MANIFEST,
      digest: e.image.digest,
      size: e.image.size,
      ...(e.platform ? { platform: e.platform } : {}),
      ...(e.annotations ? { annotations: e.annotations } : {}),
    })),
  };
  if (annotations) index.annotations = annotations;
  return pushManifest(reg, repository, tag, index, OCI_INDEX, reg.pushAuth?.(repository));
}

/** Push a BuildKit-style provenance attestation manifest (in-toto SLSA layer) for `subject`. */
export async function pushAttestation(reg: TestRegistry, repository: string, subject: string, statement: object): Promise<PushedImage> {
  const auth = reg.pushAuth?.(repository);
  const layer = Buffer.from(JSON.stringify(statement));
  const layerDigest = await pushBlob(reg, repository, layer, auth);
  const config = Buffer.from(JSON.stringify({ architecture: 'unknown', os: 'unknown', config: {}, rootfs: { type: 'layers', diff_ids: [layerDigest] } }));
  const configDigest = await pushBlob(reg, repository, config, auth);
  const body = JSON.stringify({
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: configDigest, size: config.length },
    layers: [
      {
        mediaType: 'application/vnd.in-toto+json',
        digest: layerDigest,
        size: layer.length,
        annotations: { 'in-toto.io/predicate-type': 'https://slsa.dev/provenance/v1' },
      },
    ],
  });
  const digest = await pushManifest(reg, repository, sha256(body), body, OCI_MANIFEST, auth);
  void subject;
  return { digest, configDigest, size: body.length };
}

export type FaultAction =
  | { kind: 'pass' }
  | { kind: 'respond'; status: number; headers?: Record<string, string>; body?: string }
  | { kind: 'delay'; ms: number }
  | { kind: 'corrupt' };

export interface FaultProxy {
  host: string;
  url: string;
  /** Requests seen, as `METHOD path`. */
  seen: string[];
  /** Most requests open at once since the last reset (set to 0 to reset). */
  maxInFlight: number;
  fault: (req: IncomingMessage, n: number) => FaultAction;
  stop(): Promise<void>;
}

/** A node:http proxy in front of `target` that can answer, delay or corrupt any request. */
export async function startFaultProxy(target: TestRegistry): Promise<FaultProxy> {
  const targetUrl = new URL(target.url);
  const state = { seen: [] as string[], maxInFlight: 0, fault: (() => ({ kind: 'pass' })) as FaultProxy['fault'] };
  let inFlight = 0;
  const forward = (req: IncomingMessage, res: ServerResponse, corrupt: boolean) => {
    const upstream = httpRequest(
      { host: targetUrl.hostname, port: targetUrl.port, path: req.url, method: req.method, headers: { ...req.headers, host: targetUrl.host } },
      (up) => {
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          let body = Buffer.concat(chunks);
          const headers = { ...up.headers };
          if (corrupt && body.length > 0) {
            body = Buffer.concat([body, Buffer.from(' ')]);
            headers['content-length'] = String(body.length);
          }
          res.writeHead(up.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  };
  const server = createServer((req, res) => {
    const n = state.seen.push(`${req.method} ${req.url}`);
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    let done = false;
    const finished = () => {
      if (!done) inFlight--;
      done = true;
    };
    res.on('finish', finished);
    res.on('close', finished);
    const action = state.fault(req, n);
    if (action.kind === 'respond') {
      req.resume();
      res.writeHead(action.status, { 'Content-Type': 'application/json', ...action.headers }).end(action.body ?? '');
    } else if (action.kind === 'delay') {
      const t = setTimeout(() => forward(req, res, false), action.ms);
      res.on('close', () => clearTimeout(t));
    } else forward(req, res, action.kind === 'corrupt');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  }) as FaultProxy;
}
