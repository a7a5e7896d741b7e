#!/usr/bin/env node
// The pinwatch command: a thin face over the bundled CLI in dist/bundle/ (src/cli/main.ts,
// bundled by rolldown.config.mjs; run `npm run build` first). CommonJS (bin/package.json), so
// Node starts without its ESM loader. It requires the start chunk (src/cli/start.ts), which sets
// V8's tiering for a short run, loads the entry chunk through the compile cache and runs it
// (README "Performance", "Start-up"). Under PINWATCH_DEBUG, the one time pinwatch prints a
// stack, source maps are turned on first so the stack names src/ files.
'use strict';
if (process.env.PINWATCH_DEBUG) process.setSourceMapsEnabled(true);
const { start } = require('../dist/bundle/start.cjs');

start(process.argv.slice(2), require).then((code) => {
  process.exitCode = code;
});
