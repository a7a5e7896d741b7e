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
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const IMAGES = opt('images', 300);
const COMMITS = opt('commits', 20000);
const RUNS = opt('runs', 3);
const RELEASE_EVERY = opt('release-every', 2000);
const KEEP = args.includes('--keep');
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cli = join(root, 'bin', 'pinwatch.js');

/** Deterministic PRNG (mulberry32) so every run builds the same repository. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

const dir = mkdtempSync(join(tmpdir(), 'pinwatch-bench-'));
try {
  const gen = time(() => {
    execFileSync('git', ['init', '-q', '-b', 'main', dir]);
    execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: fastImportStream(), maxBuffer: 1 << 30 });
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
