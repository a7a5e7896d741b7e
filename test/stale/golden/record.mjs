#!/usr/bin/env node
// Records the golden answers: node test/stale/golden/record.mjs <pinwatch checkout with bin/ and dist/>
// (done once with the engine before issue 15's changes; the test compares today's engine with them).
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GOLDEN_REPOS, goldenArgs, normalize } from './repos.mjs';

const checkout = process.argv[2];
if (!checkout) throw new Error('usage: record.mjs <pinwatch checkout>');
const here = fileURLToPath(new URL('.', import.meta.url));
for (const [name, { make, commands }] of Object.entries(GOLDEN_REPOS)) {
  const dir = make();
  try {
    for (const command of commands) {
      const r = spawnSync(process.execPath, [join(checkout, 'bin', 'pinwatch.js'), ...goldenArgs(command, dir)], { encoding: 'utf8', maxBuffer: 1 << 28 });
      if (r.status !== 0 && r.status !== 1) throw new Error(`${name} ${command}: exit ${r.status}: ${r.stderr}`);
      writeFileSync(join(here, `${name}.${command}.json`), `${JSON.stringify({ exit: r.status, answer: normalize(JSON.parse(r.stdout)) }, null, 1)}\n`);
      console.log(name, command, 'exit', r.status);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
