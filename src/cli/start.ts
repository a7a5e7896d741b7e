/**
 * The bin's start (bin/pinwatch.js requires this chunk first and nothing else):
 * V8's tiering for a short run (./tiering.ts), then the CLI's entry chunk loaded
 * through the compile cache (./compile-cache.ts), then its `main`. The tiering
 * comes first because V8 refuses bytecode kept under other flags. The entry is
 * required as Node would require it when there is no cache (turned off, or no
 * folder known), for `--version` alone (it compiles next to nothing, and hashing
 * would load `node:crypto`) and under PINWATCH_DEBUG (Node's source maps then
 * name src/ files in the one stack pinwatch prints).
 */
import { fileURLToPath } from 'node:url';
import { chunkLoader, compileCachePlace } from './compile-cache.js';
import { tuneTiering } from './tiering.js';

export { tuneTiering };

/** The entry chunk's face (src/cli/main.ts). */
interface Entry {
  main(argv: string[]): Promise<number>;
}

/**
 * Run pinwatch with argv (without node and script) from the bundle's entry chunk `entry`; the exit code.
 * `nodeRequire`: the bin's own `require` (built-ins come from it).
 */
export async function start(argv: string[], nodeRequire: (id: string) => unknown, entry = fileURLToPath(new URL('./pinwatch.cjs', import.meta.url))): Promise<number> {
  const flags = tuneTiering(argv);
  const versionOnly = argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V');
  const place = compileCachePlace(process.env);
  if (versionOnly || process.env.PINWATCH_DEBUG || !('dir' in place)) return (nodeRequire(entry) as Entry).main(argv);
  // the command: the first bare word (`check` when there is none; a global option's value before it names the slot instead)
  const command = argv.find((a) => !a.startsWith('-')) ?? 'check';
  return (chunkLoader(place.dir, [...process.execArgv, ...flags].join(' '), nodeRequire, command)(entry) as Entry).main(argv);
}
