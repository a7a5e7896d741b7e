#!/usr/bin/env node
/**
 * stale benchmark: generates a synthetic monorepo with `git fast-import`
 * (IMAGES images, COMMITS commits with merges and periodic release-prep commits
 * that stamp digests), then times `pinwatch stale` against one plain
 * `git log --name-only` over the same range (oldest build commit..HEAD).
 *
 *   npm run build && node bench/stale-bench.mjs [--images 300] [--commits 20000] [--runs 3] [--keep]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleHistoryStream } from './stale/history.mjs';
import { median, numOpt as opt, time } from './lib.mjs';

const args = process.argv.slice(2);
const IMAGES = opt('images', 300);
const COMMITS = opt('commits', 20000);
const RUNS = opt('runs', 3);
const RELEASE_EVERY = opt('release-every', 2000);
const KEEP = args.includes('--keep');
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cli = join(root, 'bin', 'pinwatch.js');



const dir = mkdtempSync(join(tmpdir(), 'pinwatch-bench-'));
try {
  const gen = time(() => {
    execFileSync('git', ['init', '-q', '-b', 'main', dir]);
    execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: staleHistoryStream({ images: IMAGES, commits: COMMITS, releaseEvery: RELEASE_EVERY }), maxBuffer: 1 << 30 });
    execFileSync('git', ['reset', '-q', '--hard', 'main'], { cwd: dir });
  });
  const count = execFileSync('git', ['rev-list', '--count', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
  console.log(`generated ${IMAGES} images, ${count} commits in ${(gen.ms / 1000).toFixed(1)}s (${dir})`);

  const staleRuns = [];
  let report;
  for (let r = 0; r < RUNS; r++) {
    const run = time(() => spawnSync(process.execPath, [cli, '--repo', dir, 'stale', '--format', 'json', '--fail-on-stale', 'never'], { encoding: 'utf8', maxBuffer: 1 << 30 }));
    if (run.out.status !== 0) throw new Error(`pinwatch stale failed (${run.out.status}): ${run.out.stderr}`);
    staleRuns.push(run.ms);
    report = JSON.parse(run.out.stdout);
  }
  const builds = report.images.filter((i) => i.builtFrom).map((i) => i.builtFrom);
  const oldest = builds.reduce((o, b) => (!o || b.date < o.date ? b : o), undefined);
  const baseRuns = [];
  for (let r = 0; r < RUNS; r++) {
    baseRuns.push(time(() => execFileSync('git', ['log', '--name-only', '--format=%H', `${oldest.commit}..HEAD`], { cwd: dir, maxBuffer: 1 << 30 })).ms);
  }
  const range = execFileSync('git', ['rev-list', '--count', `${oldest.commit}..HEAD`], { cwd: dir, encoding: 'utf8' }).trim();
  const s = median(staleRuns);
  const b = median(baseRuns);
  const { summary, stats } = report;
  console.log(`stale: ${summary.images} images (${summary.stale} stale, ${summary.current} current, ${summary.unknown} unknown), ${stats?.gitProcesses ?? '?'} git processes`);
  console.log(`pinwatch stale (whole CLI: scan + config + inputs + history): median ${s.toFixed(0)} ms over ${RUNS} runs`);
  console.log(`git log --name-only ${oldest.commit.slice(0, 10)}..HEAD (${range} commits): median ${b.toFixed(0)} ms`);
  const engine = Object.values(stats?.timings ?? {}).reduce((a, x) => a + x, 0);
  console.log(`stale engine phases (last run, ms): ${JSON.stringify(stats?.timings ?? {})} = ${engine} ms`);
  console.log(`ratio: ${(s / b).toFixed(1)}x (whole CLI), ${(engine / b).toFixed(1)}x (history engine only)`);
} finally {
  if (!KEEP) rmSync(dir, { recursive: true, force: true });
}
