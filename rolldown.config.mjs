/**
 * The bundled CLI (issue 15, start-up): `npm run build` runs tsc (the library in
 * dist/, unchanged, what `exports` points at) and then rolldown with this file,
 * which bundles the CLI from src/cli/main.ts into dist/bundle/, the code
 * bin/pinwatch.js runs. Loading a few dozen chunks instead of up to ~250 module
 * files (pinwatch's, commander's, yaml's and diff's) is what saves start-up time.
 *
 * - Code-split: every `await import()` in the CLI (each command body in
 *   src/cli/program.ts, commander and the program itself in main.ts) is its own
 *   chunk, and code shared by several is split out so each command loads only
 *   what it reaches: `--version` loads no commander, `scan` no stale engine
 *   (test/cli/bin.test.ts checks the sources in the chunks a run loads).
 * - CommonJS chunks (`.cjs`), from ESM sources: bin/pinwatch.js (CommonJS too:
 *   bin/package.json) requires the entry, and the entry every other chunk, so a
 *   run starts no ESM loader (no `import()` is left in the chunks either:
 *   built-in modules loaded late come from process.getBuiltinModule). Node 20's ESM loader costs about
 *   0.4 ms per module (38 empty modules: +14–20 ms over one; required, +2–5 ms),
 *   and a run loads 20 to 60 chunks: a cached `stale` rerun 0.91× its wall time
 *   as ESM chunks (30 interleaved pairs). The sources, the library in dist/ and
 *   its exports stay ESM; `import.meta.url` becomes the chunk's own file URL.
 * - Two entries: `start` (src/cli/start.ts), the one chunk bin/pinwatch.js
 *   requires itself, which sets V8's tiering and then loads `pinwatch` (the CLI)
 *   and every chunk it requires through the compile cache (src/cli/compile-cache.ts:
 *   V8's bytecode kept between runs); it shares no code with the CLI's chunks.
 * - Flat: every chunk sits in dist/bundle/, two folders below the package root,
 *   where src/cli/version.ts and src/cache/store.ts look for package.json.
 * - The dependencies are bundled too (left external, their own files were about a
 *   quarter of the module-load time); node: built-ins stay imports. The package
 *   still lists them: the library in dist/ imports them.
 * - Source maps beside each chunk, without the sources' text: stack traces
 *   point to src/ when source maps are on, which bin/pinwatch.js does under
 *   PINWATCH_DEBUG (the only time pinwatch prints a stack). Off otherwise: Node
 *   then never reads the maps.
 * - Not minified: measured, it changed module load by less than the noise
 *   (README "Performance"), and it would rename the functions in a stack.
 * - `node rolldown.config.mjs` (what the build script runs) builds with rolldown's
 *   API, printing only warnings and errors; `npx rolldown -c rolldown.config.mjs`
 *   does the same and lists every chunk.
 * - The opt-in scan worker (src/scan/pool.ts, library only: no CLI flag uses it)
 *   is not bundled; from the bundle, scan collects in-process, as without workers.
 */
import { pathToFileURL } from 'node:url';

const config = {
  input: { pinwatch: 'src/cli/main.ts', start: 'src/cli/start.ts' },
  platform: 'node',
  external: [/^node:/],
  logLevel: 'warn',
  output: {
    dir: 'dist/bundle',
    format: 'cjs',
    entryFileNames: '[name].cjs',
    chunkFileNames: '[name]-[hash].cjs',
    sourcemap: true,
    sourcemapExcludeSources: true,
  },
};

export default config;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { build } = await import('rolldown');
  await build(config);
}
