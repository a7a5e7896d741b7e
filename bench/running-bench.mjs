#!/usr/bin/env node
/**
 * running benchmark: the stale bench's synthetic monorepo (`git fast-import`:
 * IMAGES images, COMMITS commits with merges and periodic release-prep commits
 * that stamp digests), and a pod list of PODS pods (`kubectl get pods -o json`
 * shape; each first-party pod runs a digest from a random release, a fifth run
 * a third-party image). Times `pinwatch running --pods` against `pinwatch
 * stale` on the same tree: the running digests ride the same one history pass,
 * so the cost is close to stale's whatever the number of pods.
 *
 *   npm run build && node bench/running-bench.mjs [--pods 5000] [--images 100] [--commits 5000] [--runs 3] [--keep]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prng } from './prng.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const PODS = opt('pods', 5000);
const IMAGES = opt('images', 100);
const COMMITS = opt('commits', 5000);
const RUNS = opt('runs', 3);
const RELEASE_EVERY = opt('release-every', 500);
const KEEP = args.includes('--keep');
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cli = join(root, 'bin', 'pinwatch.js');

const digest = (i, r) => `sha256:${createHash('sha256').update(`img${i}-r${r}`).digest('hex')}`;
const values = (i, r) => `controller:\n  image: "ghcr.io/bench/img${i}:v0.${r}.0@${digest(i, r)}"\n`;

function fastImportStream() {
  const rand = prng(42);
  const parts = [];
  const data = (s) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  const file = (path, content) => `M 100644 inline ${path}\n${data(content)}`;
  let mark = 0;
  let t = Date.parse('2025-01-01T00:00:00Z') / 1000;
  const commit = (branch, msg, files, from, merge) => {
    mark++;
    t += 600;
    parts.push(
      `commit refs/heads/${branch}\nmark :${mark}\nauthor Bench <bench@example.test> ${t} +0000\ncommitter Bench <bench@example.test> ${t} +0000\n${data(msg)}` +
        (from ? `from :${from}\n` : '') +
        (merge ? `merge :${merge}\n` : '') +
        files.join(''),
    );
    return mark;
  };
  const config = ['firstParty: [ghcr.io/bench/]', 'include: ["charts/**/values.yaml"]', 'images:'];
  const init = [];
  for (let i = 0; i < IMAGES; i++) {
    config.push(`  img${i}:`, `    repository: ghcr.io/bench/img${i}`, `    context: src/img${i}`);
    init.push(file(`src/img${i}/Dockerfile`, 'FROM alpine\nCOPY . /app\n'), file(`src/img${i}/main.go`, `package main // ${i}\n`), file(`charts/img${i}/values.yaml`, values(i, 0)));
  }
  init.push(file('pinwatch.yaml', `${config.join('\n')}\n`));
  const rootCommit = commit('main', 'chore: start the monorepo', [file('README.md', 'bench\n')]);
  let main = commit('main', 'initial images', init, rootCommit);
  let release = 0;
  let made = 1;
  while (made < COMMITS) {
    if (made % RELEASE_EVERY === 0) {
      release++;
      const stamps = [];
      for (let i = 0; i < IMAGES; i++) if (rand() < 0.5) stamps.push(file(`charts/img${i}/values.yaml`, values(i, release)));
      main = commit('main', `Prepare release v0.${release}.0`, stamps, main);
      made++;
      continue;
    }
    const k = Math.floor(rand() * IMAGES);
    const type = rand() < 0.4 ? 'fix' : rand() < 0.5 ? 'feat' : 'chore';
    const change = [file(`src/img${k}/main.go`, `package main // ${k} change ${made}\n`)];
    if (made % 20 === 0) {
      const side = commit('side', `${type}(img${k}): change ${made}`, change, main);
      main = commit('main', `Merge pull request #${made} from bench/side`, [], main, side);
      made += 2;
    } else {
      main = commit('main', `${type}(img${k}): change ${made} (#${made})`, change, main);
      made++;
    }
  }
  return `${parts.join('')}done\n`;
}

function time(fn) {
  const start = process.hrtime.bigint();
  const out = fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, out };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** PODS pods: Deployments of 5 replicas; first-party ones run a random release's digest of their image. */
function podList(releases) {
  const rand = prng(7);
  const items = [];
  for (let p = 0; p < PODS; p++) {
    const d = Math.floor(p / 5);
    const deployment = `app${d}`;
    const hash = createHash('sha256').update(deployment).digest('hex').slice(0, 10);
    const third = d % 5 === 4;
    // every replica of a Deployment runs its image; one in ten is still on another release (a rollout)
    const i = d % IMAGES;
    const base = (d * 7) % (releases + 1);
    const r = rand() < 0.1 ? Math.floor(rand() * (releases + 1)) : base;
    const image = third ? 'docker.io/library/redis:7' : `ghcr.io/bench/img${i}:v0.${r}.0`;
    const imageID = third ? `docker.io/library/redis@${digest(-1, 0)}` : `ghcr.io/bench/img${i}@${digest(i, r)}`;
    items.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${deployment}-${hash}-${p}`, namespace: `ns${d % 20}`, labels: { 'pod-template-hash': hash }, ownerReferences: [{ kind: 'ReplicaSet', name: `${deployment}-${hash}`, controller: true }] },
      spec: { containers: [{ name: 'main', image }] },
      status: { phase: 'Running', containerStatuses: [{ name: 'main', image, imageID, ready: true, state: { running: {} } }] },
    });
  }
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
}

const dir = mkdtempSync(join(tmpdir(), 'pinwatch-running-bench-'));
try {
  const gen = time(() => {
    execFileSync('git', ['init', '-q', '-b', 'main', dir]);
    execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: fastImportStream(), maxBuffer: 1 << 30 });
    execFileSync('git', ['reset', '-q', '--hard', 'main'], { cwd: dir });
  });
  const count = execFileSync('git', ['rev-list', '--count', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
  const releases = Math.floor((COMMITS - 1) / RELEASE_EVERY);
  const podsFile = join(dir, '..', `${dir.split('/').pop()}-pods.json`);
  writeFileSync(podsFile, podList(releases));
  console.log(`generated ${IMAGES} images, ${count} commits, ${PODS} pods in ${(gen.ms / 1000).toFixed(1)}s (${dir})`);
  const runCli = (argv) => {
    const run = time(() => spawnSync(process.execPath, [cli, '--repo', dir, ...argv], { encoding: 'utf8', maxBuffer: 1 << 30 }));
    if (run.out.status !== 0) throw new Error(`pinwatch ${argv.join(' ')} failed (${run.out.status}): ${run.out.stderr}`);
    return { ms: run.ms, doc: JSON.parse(run.out.stdout) };
  };
  const runningRuns = [];
  const staleRuns = [];
  let report;
  for (let r = 0; r < RUNS; r++) {
    const run = runCli(['running', '--pods', podsFile, '--format', 'json', '--fail-on-running', 'never']);
    runningRuns.push(run.ms);
    report = run.doc;
    staleRuns.push(runCli(['stale', '--format', 'json', '--fail-on-stale', 'never']).ms);
  }
  const { summary, stats } = report;
  console.log(`running: ${summary.pods} pods, ${summary.containers} containers, ${summary.firstParty} first-party (${summary.asPinned} as-pinned, ${summary.older} older, ${summary.newer} newer, ${summary.diverged} diverged, ${summary.unknown} unknown), ${summary.rollouts} rollouts, ${stats.gitProcesses} git processes`);
  console.log(`pinwatch running --pods (whole CLI): median ${median(runningRuns).toFixed(0)} ms over ${RUNS} runs`);
  console.log(`pinwatch stale (same tree, whole CLI): median ${median(staleRuns).toFixed(0)} ms`);
  if (!KEEP) rmSync(podsFile, { force: true });
} finally {
  if (!KEEP) rmSync(dir, { recursive: true, force: true });
}
