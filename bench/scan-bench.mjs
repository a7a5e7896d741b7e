// Scan benchmark: 2,000 realistic values files in a temp dir, scanRepo from dist/
// (run `npm run build` first) a few times. Prints files, pins, the median wall
// and CPU time of a whole scan, and how much of it is the walk + reads (scan's
// own work) versus the collectors (YAML parsing), and the two YAML parsers alone
// (the fast subset parser the collector uses for plain values files, and `yaml`,
// used for everything else). The first in-process run includes the JIT warm-up,
// as a CLI run does. The load average is printed too: on a shared machine wall
// time mostly measures the neighbours.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateTree } from './scan/generate.mjs';
import { median } from './lib.mjs';

const FILES = Number(process.env.SCAN_BENCH_FILES ?? 2000);
const RUNS = Number(process.env.SCAN_BENCH_RUNS ?? 5);

const { scanRepo } = await import('../dist/scan/repo.js');
const { walkTree } = await import('../dist/scan/walk.js');
const { readTextFile } = await import('../dist/scan/read.js');
const { loadConfig } = await import('../dist/config/load.js');
const { fastParse } = await import('../dist/collect/yaml/fast-parse.js');
const { parseAllDocuments, LineCounter } = await import('yaml');

const ms = (x) => `${x.toFixed(0)} ms`;

function timed(fn) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = fn();
  return { value, wall: performance.now() - t0, cpu: (() => { const c = process.cpuUsage(cpu0); return (c.user + c.system) / 1000; })() };
}

const dir = mkdtempSync(join(tmpdir(), 'pinwatch-scan-bench-'));
try {
  generateTree(dir, FILES);
  const config = loadConfig(dir, { firstParty: ['ghcr.io/acme/'] });
  let result;
  const ownWall = [];
  for (const [label, options] of [['in-process', { workers: 0 }], ['worker threads (2, opt-in)', { workers: 2 }]]) {
    const wall = [];
    const cpu = [];
    for (let i = 0; i < RUNS; i++) {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      result = await scanRepo(dir, config, options);
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(cpu0);
      cpu.push((c.user + c.system) / 1000);
      ownWall.push(timed(() => walkTree(dir, config).files.map((f) => readTextFile(f.abs, f.file))).wall);
    }
    console.log(`${label}: runs ${wall.map((t) => t.toFixed(0)).join(', ')} ms; median ${ms(median(wall))} wall, ${ms(median(cpu))} CPU (process)`);
  }
  const first = result.pins.filter((p) => p.firstParty).length;
  console.log(`files scanned: ${result.filesScanned}`);
  console.log(`pins: ${result.pins.length} (${first} first-party), skipped: ${result.skipped.length}, problems: ${result.problems.length}`);
  console.log(`walk + read alone (scan's own work): ${ms(median(ownWall))} median; the rest is the collectors`);
  const texts = walkTree(dir, config).files.map((f) => readTextFile(f.abs, f.file).text);
  const fastOnly = [];
  const yamlOnly = [];
  for (let i = 0; i < RUNS; i++) {
    fastOnly.push(timed(() => texts.forEach((t) => fastParse(t))).wall);
    yamlOnly.push(timed(() => texts.forEach((t) => parseAllDocuments(t, { lineCounter: new LineCounter(), keepSourceTokens: true }))).wall);
  }
  const fast = texts.filter((t) => fastParse(t)).length;
  console.log(`files in the fast YAML subset: ${fast} of ${texts.length}`);
  console.log(`parsing alone over the same files: fast parser ${ms(median(fastOnly))}, yaml parseAllDocuments ${ms(median(yamlOnly))} (medians)`);
  console.log(`load average: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
