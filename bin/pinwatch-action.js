#!/usr/bin/env node
// The GitHub Action's entry (action.yml): a thin face over dist/action/main.js, handed the CLI's main (run `npm run build` first).
import { runAction } from '../dist/action/main.js';
import { main } from '../dist/cli/main.js';
import { processIo } from '../dist/cli/context.js';

process.exitCode = await runAction(process.env, processIo(), main);
