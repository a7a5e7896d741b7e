/**
 * What a recipe line makes before a build reads it: `cp SRC… DEST` (cozystack's migrations image
 * copies chart CRDs into its build context, then removes them) and `go build -o OUT PKG…` (a
 * binary the Dockerfile COPYs: gateway, opentelemetry-operator). A Dockerfile COPY of a path the
 * working tree lacks is then known: its inputs are what was copied or compiled (src/sources/derive.ts),
 * not an unknown.
 */
import * as path from 'node:path';

export interface MadeFile {
  /** Absolute path made (a file or directory). */
  dest: string;
  /** `cp`: the absolute source paths (globs kept); `go`: the main packages' absolute directories. */
  sources: string[];
  tool: 'cp' | 'go build';
  source: { file: string; line: number };
  order: number;
}

const CP_VALUE_FLAGS = new Set(['-t', '--target-directory', '-S', '--suffix']);
const GO_VALUE_FLAGS = new Set(['-o', '-ldflags', '-gcflags', '-asmflags', '-tags', '-mod', '-modfile', '-p', '-pkgdir', '-toolexec', '-overlay', '-pgo', '-installsuffix', '-buildmode', '-compiler', '-gccgoflags', '-C']);

/** The file a `cp` or `go build -o` line makes, or undefined (another command, or one not read: `cp` to stdout, `go build` of an import path). */
export function readMade(name: string, argv: readonly string[], dir: string, source: { file: string; line: number }, order: number): MadeFile | undefined {
  if (name === 'cp') return readCp(argv.slice(1), dir, source, order);
  if (name === 'go' && argv[1] === 'build') return readGoBuild(argv.slice(2), dir, source, order);
  return undefined;
}

function readCp(args: readonly string[], dir: string, source: MadeFile['source'], order: number): MadeFile | undefined {
  const positional: string[] = [];
  let target: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-t' || a === '--target-directory') target = args[++i];
    else if (a.startsWith('--target-directory=')) target = a.slice(a.indexOf('=') + 1);
    else if (CP_VALUE_FLAGS.has(a)) i++;
    else if (a.startsWith('-') && a !== '-') continue;
    else positional.push(a);
  }
  const dest = target ?? positional.pop();
  if (dest === undefined || positional.length === 0 || positional.includes('-')) return undefined;
  return { dest: path.resolve(dir, dest), sources: positional.map((p) => path.resolve(dir, p)), tool: 'cp', source, order };
}

function readGoBuild(args: readonly string[], dir: string, source: MadeFile['source'], order: number): MadeFile | undefined {
  let out: string | undefined;
  let cwd = dir;
  const packages: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.indexOf('=');
    const flag = eq === -1 ? a : a.slice(0, eq);
    if (GO_VALUE_FLAGS.has(flag) || GO_VALUE_FLAGS.has(flag.replace(/^--/, '-'))) {
      const value = eq === -1 ? args[++i] : a.slice(eq + 1);
      if (flag.replace(/^--/, '-') === '-o') out = value;
      if (flag.replace(/^--/, '-') === '-C' && value !== undefined) cwd = path.resolve(dir, value);
      continue;
    }
    if (a.startsWith('-')) continue;
    packages.push(a);
  }
  // only packages named by path (`./cmd/x`, `main.go`, `.`): an import path or a pattern (`./...`) is not read here
  if (out === undefined || packages.length === 0 || !packages.every((p) => p === '.' || p.startsWith('./') || p.startsWith('../') || (p.endsWith('.go') && !p.includes('*')))) return undefined;
  if (packages.some((p) => p.includes('...'))) return undefined;
  const dirs = [...new Set(packages.map((p) => path.resolve(cwd, p.endsWith('.go') ? path.dirname(p) : p)))];
  return { dest: path.resolve(cwd, out), sources: dirs, tool: 'go build', source, order };
}
