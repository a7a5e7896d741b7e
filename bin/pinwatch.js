#!/usr/bin/env node
// The pinwatch command: a thin face over the library in dist/ (run `npm run build` first).
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
