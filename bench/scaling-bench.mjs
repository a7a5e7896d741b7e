// Scaling benchmark (issue 16, item 12): the places that were quadratic in the
// size of one file, timed at N and 4N. Linear work grows about 4x from one size to
// the next; the old code grew 16x (write-without-pin spread a per-file list for
// every pin: 64k pins in one file took 63 s; repin went through yaml's
// duplicate-key check: one 20,000-key map took 14 s). Runs from dist/ (`npm run
// build` first). Prints each size's median time and the ratio between sizes.
import { performance } from 'node:perf_hooks';
import { median } from './lib.mjs';

const { collectYaml } = await import('../dist/collect/yaml/index.js');
const { writeWithoutPin } = await import('../dist/rules/write-without-pin.js');
const { editYaml } = await import('../dist/edit/yaml.js');

const RUNS = Number(process.env.SCALING_BENCH_RUNS ?? 3);
const ctx = { file: 'values.yaml', isFirstParty: () => true };

function valuesFile(n) {
  const lines = [];
  for (let i = 0; i < n; i++) lines.push(`img${i}: ghcr.io/acme/app${i}:v1.0.${i}`);
  return `${lines.join('\n')}\n`;
}

function time(fn) {
  const xs = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    fn();
    xs.push(performance.now() - t0);
  }
  return median(xs);
}

function writeWithoutPinRun(n) {
  const text = valuesFile(n);
  const { pins } = collectYaml(text, ctx);
  const write = { file: 'values.yaml', keyPath: 'missing.key', via: 'yq', refId: 'r', source: { file: 'Makefile', line: 1 } };
  const input = {
    pins,
    model: { producers: [{ id: 'Makefile:image', writes: [write] }], problems: [] },
    config: {},
    skipped: [],
    problems: [],
    stampsOf: () => [],
    fileText: () => text,
  };
  return () => writeWithoutPin.check(input);
}

function editRun(n) {
  const text = valuesFile(n);
  const at = text.indexOf(`ghcr.io/acme/app${n - 1}:`);
  const old = `ghcr.io/acme/app${n - 1}:v1.0.${n - 1}`;
  return () => editYaml(text, [{ start: at, end: at + old.length, text: `${old}-rebuilt` }], 'values.yaml');
}

function report(name, make, sizes) {
  let prev;
  for (const n of sizes) {
    const ms = time(make(n));
    const ratio = prev ? `  ×${(ms / prev).toFixed(1)} for ×4 the size (linear ≈ 4, quadratic ≈ 16)` : '';
    console.log(`${name.padEnd(36)} n=${String(n).padStart(6)}  ${ms.toFixed(0).padStart(6)} ms${ratio}`);
    prev = ms;
  }
}

report('write-without-pin, pins in one file', writeWithoutPinRun, [16000, 64000]);
report('editYaml, one edit in an n-key map', editRun, [5000, 20000]);
