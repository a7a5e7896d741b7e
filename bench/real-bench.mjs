#!/usr/bin/env node
/**
 * Real-repository benchmark: times `pinwatch scan`, `check`, `stale` and
 * `--version` on a real clone against `git log --name-only` over the range
 * stale judges (oldest build commit..HEAD) and `node -e 0`, interleaved runs,
 * medians of wall and user+sys CPU (via /usr/bin/time). The machine may be
 * shared, so read the ratios, which are measured in the same run.
 *
 *   npm run build && node bench/real-bench.mjs [--repo /work/real/cozystack] [--runs 5] [--base /path/to/other/checkout]
 *
 * With --base, the same commands of another pinwatch build (a checkout with
 * bin/ and dist/) run interleaved too, for a before/after in one run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, opt } from './lib.mjs';

const repo = opt('repo', '/work/real/cozystack');
const RUNS = Number(opt('runs', 5));
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const builds = { new: join(root, 'bin', 'pinwatch.js') };
if (opt('base')) builds.base = join(opt('base'), 'bin', 'pinwatch.js');
const tmp = mkdtempSync(join(tmpdir(), 'pinwatch-real-bench-'));

/** One command under /usr/bin/time: wall ms and user+sys CPU ms. */
function measure(cmd, argv, ok = [0, 1]) {
  const out = join(tmp, 'time');
  const start = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-o', out, '-f', '%U %S', cmd, ...argv], { cwd: repo, maxBuffer: 1 << 30, encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  if (!ok.includes(r.status)) throw new Error(`${cmd} ${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  const [u, s] = readFileSync(out, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: (u + s) * 1000, stdout: r.stdout };
}


try {
  const first = JSON.parse(measure(process.execPath, [builds.new, 'stale', '--repo', repo, '--format', 'json', '--fail-on-stale', 'never']).stdout);
  const dates = first.images.filter((i) => i.builtFrom?.date).map((i) => i.builtFrom);
  const oldest = dates.reduce((o, b) => (!o || b.date < o.date ? b : o), undefined);
  const range = execFileSync('git', ['rev-list', '--count', `${oldest.commit}..HEAD`], { cwd: repo, encoding: 'utf8' }).trim();
  const commands = {
    'node -e 0': [process.execPath, ['-e', '0']],
    'git log --name-only': ['git', ['log', '--name-only', '--format=%H', `${oldest.commit}..HEAD`]],
  };
  for (const [name, cli] of Object.entries(builds)) {
    commands[`${name} --version`] = [process.execPath, [cli, '--version']];
    commands[`${name} scan`] = [process.execPath, [cli, 'scan', '--repo', repo, '--format', 'json']];
    commands[`${name} check`] = [process.execPath, [cli, 'check', '--repo', repo, '--format', 'json']];
    commands[`${name} stale`] = [process.execPath, [cli, 'stale', '--repo', repo, '--format', 'json', '--fail-on-stale', 'never']];
  }
  const runs = Object.fromEntries(Object.keys(commands).map((k) => [k, { wall: [], cpu: [] }]));
  for (let r = 0; r < RUNS; r++) {
    for (const [name, [cmd, argv]] of Object.entries(commands)) {
      const m = measure(cmd, argv);
      runs[name].wall.push(m.wall);
      runs[name].cpu.push(m.cpu);
    }
  }
  const med = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, { wall: median(v.wall), cpu: median(v.cpu) }]));
  const baseline = med['git log --name-only'];
  const node0 = med['node -e 0'];
  console.log(`${repo}: range ${oldest.commit.slice(0, 10)}..HEAD = ${range} commits, ${first.images.length} images, ${RUNS} interleaved runs (medians)`);
  console.log('command                     wall ms   cpu ms   wall/git-log  cpu/git-log');
  for (const [k, v] of Object.entries(med)) {
    const ratio = k.endsWith('--version') || k === 'node -e 0' ? `(node -e 0 x${(v.wall / node0.wall).toFixed(2)})` : `${(v.wall / baseline.wall).toFixed(1)}x         ${(v.cpu / baseline.cpu).toFixed(1)}x`;
    console.log(`${k.padEnd(26)} ${v.wall.toFixed(0).padStart(7)} ${v.cpu.toFixed(0).padStart(8)}   ${ratio}`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
