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
import { digest, staleHistoryStream } from './stale/history.mjs';
import { median, numOpt as opt, time } from './lib.mjs';

const args = process.argv.slice(2);
const PODS = opt('pods', 5000);
const IMAGES = opt('images', 100);
const COMMITS = opt('commits', 5000);
const RUNS = opt('runs', 3);
const RELEASE_EVERY = opt('release-every', 500);
const KEEP = args.includes('--keep');
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cli = join(root, 'bin', 'pinwatch.js');



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
    execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: staleHistoryStream({ images: IMAGES, commits: COMMITS, releaseEvery: RELEASE_EVERY }), maxBuffer: 1 << 30 });
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
