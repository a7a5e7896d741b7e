#!/usr/bin/env node
// The pinwatch command: a thin face over the bundled CLI in dist/bundle/ (src/cli/main.ts,
// bundled by rolldown.config.mjs; run `npm run build` first). CommonJS (bin/package.json), so
// Node starts without its ESM loader and requires the entry chunk directly (README
// "Performance", "Start-up"). Under PINWATCH_DEBUG, the one time pinwatch prints a stack,
// source maps are turned on first so the stack names src/ files. V8's tiering is set for a
// short run before the command runs (src/cli/tiering.ts).
'use strict';
if (process.env.PINWATCH_DEBUG) process.setSourceMapsEnabled(true);
const { main, tuneTiering } = require('../dist/bundle/pinwatch.cjs');

const argv = process.argv.slice(2);
tuneTiering(argv);
main(argv).then((code) => {
  process.exitCode = code;
});
