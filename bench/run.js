#!/usr/bin/env node
// `npm run bench`: every benchmark in bench/, one after another (each prints its own numbers).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
let failed = 0;
for (const script of ['scan-bench.mjs', 'stale-bench.mjs', 'running-bench.mjs', 'scaling-bench.mjs', 'recipes-bench.mjs', 'triage-bench.mjs', 'promote-bench.mjs']) {
  console.log(`\n== ${script}`);
  const r = spawnSync(process.execPath, [join(here, script)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
