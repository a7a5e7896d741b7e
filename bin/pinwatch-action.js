#!/usr/bin/env node
// The GitHub Action's entry (action.yml): a thin face over dist/action/main.js, handed the CLI's main (run `npm run build` first).
// V8's tiering is set for a short run first, as bin/pinwatch.js does (src/cli/tiering.ts).
import { tuneTiering } from '../dist/cli/tiering.js';

await tuneTiering([]);
const { runAction } = await import('../dist/action/main.js');
const { main } = await import('../dist/cli/main.js');
const { processIo } = await import('../dist/cli/context.js');

process.exitCode = await runAction(process.env, processIo(), main);
