#!/usr/bin/env node
// The pinwatch command: a thin face over the bundled CLI in dist/bundle/ (src/cli/main.ts,
// bundled by rolldown.config.mjs; run `npm run build` first). Under PINWATCH_DEBUG, the one
// time pinwatch prints a stack, source maps are turned on first so the stack names src/ files.
if (process.env.PINWATCH_DEBUG) process.setSourceMapsEnabled(true);
const { main } = await import('../dist/bundle/pinwatch.cjs');

process.exitCode = await main(process.argv.slice(2));
