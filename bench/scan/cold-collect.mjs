// One cold collect of a YAML file, as a CLI run pays it: a fresh process imports
// the built collector (`npm run build` first), reads the file and collects it
// once. Prints the main thread's wall time and the process's CPU (all threads:
// TurboFan's background compiles and GC included). Run it many times,
// interleaved with the build it is compared with, and take medians (docs/scan.md,
// "Large manifests"). `--built` builds every node (no left-out subtrees).
//
//   node bench/scan/cold-collect.mjs <file.yaml> [--built] [--dist <dir>]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--') && args[args.indexOf(a) - 1] !== '--dist');
if (!file) {
  console.error('usage: node bench/scan/cold-collect.mjs <file.yaml> [--built] [--dist <dir>]');
  process.exit(2);
}
const dist = args.includes('--dist') ? resolve(args[args.indexOf('--dist') + 1]) : new URL('../../dist', import.meta.url).pathname;
const { collectYaml } = await import(pathToFileURL(`${dist}/collect/yaml/collect.js`).href);
const text = readFileSync(file, 'utf8');
const cpu = process.cpuUsage();
const start = performance.now();
const result = collectYaml(text, { file, isFirstParty: () => false }, { built: args.includes('--built') });
const wall = performance.now() - start;
const used = process.cpuUsage(cpu);
console.log(`wall ${wall.toFixed(1)} ms  cpu ${((used.user + used.system) / 1000).toFixed(1)} ms  pins ${result.pins.length}  problems ${result.problems.length}`);
