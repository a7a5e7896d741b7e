#!/usr/bin/env node
/**
 * recipes benchmark: generates a monorepo with `git fast-import` whose images
 * are built only by recipes (no Makefile, no `images:` entries): JOBS workflow
 * jobs (docker/build-push-action over a matrix of one, in files of 10 jobs) and
 * TARGETS docker-bake targets (inheriting a common target, in one group), each
 * image pinned in a values file, over COMMITS commits. Times `pinwatch stale`
 * (whole CLI) and, in-process, reading every recipe (`loadBuildModel`), and
 * prints the share.
 *
 *   npm run build && node bench/recipes-bench.mjs [--jobs 200] [--targets 100] [--commits 5000] [--runs 3] [--keep]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, numOpt as opt, time } from './lib.mjs';

const args = process.argv.slice(2);
const JOBS = opt('jobs', 200);
const TARGETS = opt('targets', 100);
const COMMITS = opt('commits', 5000);
const RUNS = opt('runs', 3);
const KEEP = args.includes('--keep');
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cli = join(root, 'bin', 'pinwatch.js');
const IMAGES = JOBS + TARGETS;

const digest = (i, r) => `sha256:${createHash('sha256').update(`img${i}-r${r}`).digest('hex')}`;
const values = (i, r) => `controller:\n  image: "ghcr.io/bench/img${i}:v0.${r}.0@${digest(i, r)}"\n`;

function workflow(first, count) {
  const jobs = [];
  for (let i = first; i < first + count; i++) {
    jobs.push(`  img${i}:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        include:
          - name: img${i}
            dir: src/img${i}
    steps:
      - uses: actions/checkout@v4
      - name: Build \${{ matrix.name }}
        uses: docker/build-push-action@v6
        with:
          context: \${{ matrix.dir }}
          build-args: |
            VERSION=\${{ github.ref_name }}
          tags: |
            \${{ env.REGISTRY }}/\${{ matrix.name }}:\${{ github.sha }}
`);
  }
  return `name: images ${first}\non: push\nenv:\n  REGISTRY: ghcr.io/bench\njobs:\n${jobs.join('')}`;
}

function bake() {
  const out = ['variable "REGISTRY" {\n  default = "ghcr.io/bench"\n}\nvariable "TAG" {}\ntarget "_common" {\n  args = { GO_VERSION = "1.22" }\n  platforms = ["linux/amd64", "linux/arm64"]\n}\n'];
  const names = [];
  for (let i = JOBS; i < IMAGES; i++) {
    names.push(`"img${i}"`);
    out.push(`target "img${i}" {\n  inherits = ["_common"]\n  context = "src/img${i}"\n  tags = ["\${REGISTRY}/img${i}:\${TAG}"]\n}\n`);
  }
  out.push(`group "default" {\n  targets = [${names.join(', ')}]\n}\n`);
  return out.join('');
}

function fastImportStream() {
  const parts = [];
  const data = (s) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  const file = (path, content) => `M 100644 inline ${path}\n${data(content)}`;
  let mark = 0;
  let t = Date.parse('2025-01-01T00:00:00Z') / 1000;
  const commit = (msg, files, from) => {
    mark++;
    t += 600;
    parts.push(`commit refs/heads/main\nmark :${mark}\nauthor Bench <bench@example.test> ${t} +0000\ncommitter Bench <bench@example.test> ${t} +0000\n${data(msg)}` + (from ? `from :${from}\n` : '') + files.join(''));
    return mark;
  };
  const init = [file('pinwatch.yaml', 'firstParty: [ghcr.io/bench/]\ninclude: ["charts/**/values.yaml"]\n'), file('docker-bake.hcl', bake())];
  for (let f = 0; f < JOBS; f += 10) init.push(file(`.github/workflows/images-${f}.yaml`, workflow(f, Math.min(10, JOBS - f))));
  for (let i = 0; i < IMAGES; i++) init.push(file(`src/img${i}/Dockerfile`, 'FROM alpine\nCOPY . /app\n'), file(`src/img${i}/main.go`, `package main // ${i}\n`), file(`charts/img${i}/values.yaml`, values(i, 0)));
  let main = commit('initial images', init);
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let made = 1, release = 0; made < COMMITS; made++) {
    if (made % 1000 === 0) {
      release++;
      const stamps = [];
      for (let i = 0; i < IMAGES; i++) if (rand() < 0.5) stamps.push(file(`charts/img${i}/values.yaml`, values(i, release)));
      main = commit(`Prepare release v0.${release}.0`, stamps, main);
      continue;
    }
    const k = Math.floor(rand() * IMAGES);
    main = commit(`fix(img${k}): change ${made}`, [file(`src/img${k}/main.go`, `package main // ${k} change ${made}\n`)], main);
  }
  return `${parts.join('')}done\n`;
}

async function timeAsync(fn) {
  const start = process.hrtime.bigint();
  const out = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, out };
}

const dir = mkdtempSync(join(tmpdir(), 'pinwatch-recipes-bench-'));
try {
  const gen = time(() => {
    execFileSync('git', ['init', '-q', '-b', 'main', dir]);
    execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: fastImportStream(), maxBuffer: 1 << 30 });
    execFileSync('git', ['reset', '-q', '--hard', 'main'], { cwd: dir });
  });
  console.log(`generated ${JOBS} workflow jobs + ${TARGETS} bake targets (${IMAGES} images), ${COMMITS} commits in ${(gen.ms / 1000).toFixed(1)}s (${dir})`);

  const { loadBuildModel } = await import(pathToFileURL(join(root, 'dist', 'producers', 'index.js')).href);
  const { loadConfig } = await import(pathToFileURL(join(root, 'dist', 'config', 'index.js')).href);
  const config = loadConfig(dir);
  const modelRuns = [];
  let model;
  for (let r = 0; r < RUNS + 1; r++) {
    const run = await timeAsync(() => loadBuildModel(dir, config));
    if (r > 0) modelRuns.push(run.ms); // the first warms the module and file caches
    model = run.out;
  }
  const kinds = {};
  for (const r of model.recipes) kinds[r.kind] = (kinds[r.kind] ?? 0) + 1;
  console.log(`recipes: ${model.recipes.length} (${JSON.stringify(kinds)}), ${model.problems.length} problems`);

  const staleRuns = [];
  let report;
  for (let r = 0; r < RUNS; r++) {
    const run = time(() => spawnSync(process.execPath, [cli, '--repo', dir, 'stale', '--format', 'json', '--fail-on-stale', 'never'], { encoding: 'utf8', maxBuffer: 1 << 30 }));
    if (run.out.status !== 0) throw new Error(`pinwatch stale failed (${run.out.status}): ${run.out.stderr}`);
    staleRuns.push(run.ms);
    report = JSON.parse(run.out.stdout);
  }
  const { summary } = report;
  const m = median(modelRuns);
  const s = median(staleRuns);
  console.log(`stale: ${summary.images} images (${summary.stale} stale, ${summary.current} current, ${summary.unknown} unknown)`);
  console.log(`reading every recipe (loadBuildModel, in process): median ${m.toFixed(0)} ms over ${RUNS} runs`);
  console.log(`pinwatch stale (whole CLI): median ${s.toFixed(0)} ms over ${RUNS} runs`);
  console.log(`recipes share of stale: ${((100 * m) / s).toFixed(1)}%`);
} finally {
  if (!KEEP) rmSync(dir, { recursive: true, force: true });
}
