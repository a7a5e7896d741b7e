#!/usr/bin/env node
/**
 * promote benchmark: a real docker-registry on loopback holding REPOS one-layer
 * images (a third of them already carrying the release tag), a tree pinning each
 * by digest, and `pinwatch promote --tag v1.0.0 --dry-run` timed: the plan (one
 * manifest HEAD per repository) straight to the registry, then through a proxy
 * adding LATENCY ms to every request (a remote registry), where the concurrency
 * limit decides the time. The proxy records the most requests in flight, which
 * must not pass the client's limit (8).
 *
 *   npm run build && node bench/promote-bench.mjs [--repos 300] [--latency 20] [--runs 3]
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numOpt as opt } from './lib.mjs';

const REPOS = opt('repos', 300);
const LATENCY = opt('latency', 20);
const RUNS = opt('runs', 3);
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cli = join(root, 'bin', 'pinwatch.js');
const sha = (b) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });

async function startRegistry(dir) {
  const port = await freePort();
  const config = join(dir, 'config.yml');
  writeFileSync(config, ['version: 0.1', 'log: { level: error, accesslog: { disabled: true } }', 'storage:', `  filesystem: { rootdirectory: ${join(dir, 'data')} }`, 'http:', `  addr: 127.0.0.1:${port}`, ''].join('\n'));
  const child = spawn('/usr/bin/docker-registry', ['serve', config], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${url}/v2/`)).ok) return { url, host: `127.0.0.1:${port}`, child };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('docker-registry did not start');
}

async function pushBlob(url, repo, body) {
  const digest = sha(body);
  const post = await fetch(`${url}/v2/${repo}/blobs/uploads/`, { method: 'POST' });
  const loc = new URL(post.headers.get('location'), url);
  loc.searchParams.set('digest', digest);
  const put = await fetch(loc, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body });
  if (!put.ok) throw new Error(`PUT blob ${put.status}`);
  return { digest, size: body.length };
}

async function pushImage(url, repo, tags) {
  const layer = await pushBlob(url, repo, Buffer.from(`layer of ${repo}`));
  const config = await pushBlob(url, repo, Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [layer.digest] } })));
  const body = JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
    layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', ...layer }],
  });
  for (const tag of tags) {
    const r = await fetch(`${url}/v2/${repo}/manifests/${tag}`, { method: 'PUT', headers: { 'Content-Type': 'application/vnd.oci.image.manifest.v1+json' }, body });
    if (!r.ok) throw new Error(`PUT manifest ${r.status}`);
  }
  return sha(body);
}

/** A proxy adding `latency` ms before forwarding each request; counts the most in flight. */
async function latencyProxy(target, latency) {
  const t = new URL(target);
  const state = { inFlight: 0, max: 0, requests: 0 };
  const server = createServer((req, res) => {
    state.requests++;
    state.inFlight++;
    state.max = Math.max(state.max, state.inFlight);
    res.on('close', () => state.inFlight--);
    const body = [];
    req.on('data', (c) => body.push(c));
    req.on('end', () => setTimeout(() => {
      const up = httpRequest({ host: t.hostname, port: t.port, path: req.url, method: req.method, headers: { ...req.headers, host: t.host } }, (u) => {
        const chunks = [];
        u.on('data', (c) => chunks.push(c));
        u.on('end', () => {
          res.writeHead(u.statusCode ?? 502, u.headers);
          res.end(Buffer.concat(chunks));
        });
      });
      up.on('error', () => res.writeHead(502).end());
      up.end(Buffer.concat(body));
    }, latency));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { host: `127.0.0.1:${server.address().port}`, state, stop: () => new Promise((r) => (server.closeAllConnections(), server.close(r))) };
}

function tree(dir, host, digests) {
  mkdirSync(join(dir, 'images'), { recursive: true });
  writeFileSync(join(dir, 'pinwatch.yaml'), `firstParty:\n  - ${host}/bench\n`);
  digests.forEach((d, i) => writeFileSync(join(dir, 'images', `img${i}.tag`), `${host}/bench/img${i}:rc@${d}\n`));
}

/** Run promote asynchronously: the latency proxy lives in this process and must keep serving. */
function time(dir) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [cli, 'promote', '--repo', dir, '--tag', 'v1.0.0', '--dry-run', '--no-cache', '--format', 'json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (code !== 0) return reject(new Error(`promote exited ${code}: ${err}${(out.match(/"reason": "[^"]*"/g) ?? []).slice(0, 2).join(' | ')}`));
      const plans = {};
      for (const i of JSON.parse(out).images) plans[i.plan] = (plans[i.plan] ?? 0) + 1;
      resolve({ ms, plans });
    });
  });
}

const work = mkdtempSync(join(tmpdir(), 'pinwatch-promote-bench-'));
let reg;
let proxy;
try {
  reg = await startRegistry(work);
  const t0 = Date.now();
  const digests = [];
  for (let i = 0; i < REPOS; i += 20) {
    digests.push(...(await Promise.all(Array.from({ length: Math.min(20, REPOS - i) }, (_, k) => pushImage(reg.url, `bench/img${i + k}`, (i + k) % 3 === 0 ? ['rc', 'v1.0.0'] : ['rc'])))));
  }
  console.log(`pushed ${REPOS} images to ${reg.host} in ${((Date.now() - t0) / 1000).toFixed(1)} s (every third already tagged v1.0.0)`);
  const direct = join(work, 'direct');
  tree(direct, reg.host, digests);
  proxy = await latencyProxy(reg.url, LATENCY);
  const slow = join(work, 'slow');
  tree(slow, proxy.host, digests);
  for (const [name, dir] of [['loopback', direct], [`+${LATENCY} ms per request`, slow]]) {
    const runs = [];
    let plans;
    for (let r = 0; r < RUNS; r++) ({ ms: runs[r], plans } = await time(dir));
    runs.sort((a, b) => a - b);
    console.log(`promote --dry-run plan, ${REPOS} repositories, ${name}: median ${(runs[Math.floor(runs.length / 2)] / 1000).toFixed(2)} s (runs: ${runs.map((x) => (x / 1000).toFixed(2)).join(', ')}); plan ${JSON.stringify(plans)}`);
  }
  console.log(`most requests in flight at the proxy: ${proxy.state.max} (client limit 8); requests: ${proxy.state.requests} over ${RUNS} run(s)`);
  const serial = (REPOS * LATENCY) / 1000;
  console.log(`for scale: ${REPOS} sequential requests at ${LATENCY} ms would take ${serial.toFixed(1)} s`);
} finally {
  await proxy?.stop();
  reg?.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
