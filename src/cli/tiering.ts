/**
 * V8's tiering for a CLI run that lasts about a second (README "Performance",
 * "JIT tiering"). Under Node 20 (V8 11.3) a function is sent to TurboFan after 3
 * ticks of its interrupt budget: a cold `stale` marks hundreds of functions that
 * run a few milliseconds each, compiled on background threads that take the
 * second core from git and return code the run barely uses. Asking for 40 ticks
 * leaves those in Ignition and Sparkplug, while a loop that stays hot (a long
 * log's triage, a whole history) is still optimized, a little later: on
 * cozystack, a cold `stale` 0.82× its wall time and 0.72× its CPU, a cached one
 * 0.94×. Only on the V8 where it was measured and the flag means this (Node 22's
 * and 24's tiering differ, and an unknown flag writes to stderr), and never over
 * a value given to node itself. `--version` alone is left as it is: it compiles
 * nothing worth it, and loading `node:v8` would add to its start-up.
 */
/** The flag, and how many ticks: measured on cozystack, 20 ticks 0.90×, 40 0.82×, 100 0.89× (cold `stale`, paired runs). */
export const TIERING_FLAG = '--ticks-before-optimization';
export const TIERING_TICKS = 40;

/**
 * The V8 flags to set for a run of pinwatch with `argv` under V8 `v8Version`, node started with `execArgv`:
 * none but on Node 20's V8, and none for `--version` alone.
 */
export function tieringFlags(v8Version: string, execArgv: readonly string[], argv: readonly string[]): string[] {
  if (!/^11\.3\./.test(v8Version)) return [];
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) return [];
  if (execArgv.some((a) => a === TIERING_FLAG || a.startsWith(`${TIERING_FLAG}=`) || a === '--ticks_before_optimization' || a.startsWith('--ticks_before_optimization='))) return [];
  return [`${TIERING_FLAG}=${TIERING_TICKS}`];
}

/**
 * Sets tieringFlags for this process's run of pinwatch with `argv` (bin/pinwatch.js and the Action's entry call it
 * first); returns what it set. `node:v8` through process.getBuiltinModule (Node ≥ 20.16): an `import()` would start
 * Node's ESM loader in the CommonJS bin, about 5 ms.
 */
export function tuneTiering(argv: readonly string[]): string[] {
  const flags = tieringFlags(process.versions.v8, process.execArgv, argv);
  if (flags.length === 0) return flags;
  const { setFlagsFromString } = process.getBuiltinModule('node:v8');
  for (const flag of flags) setFlagsFromString(flag);
  return flags;
}
