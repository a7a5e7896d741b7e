#!/usr/bin/env node
// The GitHub Action's entry (action.yml): a thin face over dist/action/main.js, handed the CLI's main (run `npm run build` first).
// CommonJS (bin/package.json), loading the library's ES modules with import(). V8's tiering is set for a short run first,
// as bin/pinwatch.js does (src/cli/tiering.ts).
'use strict';
const load = async () => {
  const { tuneTiering } = await import('../dist/cli/tiering.js');
  tuneTiering([]);
  const [{ runAction }, { main }, { processIo }] = await Promise.all([import('../dist/action/main.js'), import('../dist/cli/main.js'), import('../dist/cli/context.js')]);
  process.exitCode = await runAction(process.env, processIo(), main);
};
load();
