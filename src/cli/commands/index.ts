/**
 * Every command, in the order `--help` lists them. Each `<name>.ts` only declares
 * its command (flags, help); the work lives in `<name>.run.ts`, imported when the
 * command runs, so `--help`, `--version` and each command load only what they use.
 */
import type { CommandRegistrar } from '../main.js';
import { registerCheck } from './check.js';
import { registerScan } from './scan.js';
import { registerLint } from './lint.js';
import { registerStale } from './stale.js';
import { registerExplain } from './explain.js';
import { registerAffected } from './affected.js';
import { registerOverlay } from './overlay.js';
import { registerRepin } from './repin.js';
import { registerInspect } from './inspect.js';
import { registerDemo } from './demo.js';
import { registerReport } from './report.js';

export const COMMANDS: CommandRegistrar[] = [
  registerCheck,
  registerScan,
  registerLint,
  registerStale,
  registerExplain,
  registerAffected,
  registerOverlay,
  registerRepin,
  registerInspect,
  registerReport,
  registerDemo,
];
