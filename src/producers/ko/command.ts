/**
 * Recognises a ko command line — `ko build|publish <importpath|./cmd/x|ko://…>…`
 * and `ko resolve|apply|create|run -f FILE|DIR` — and reads what it builds:
 * the import paths (or the files whose `ko://` refs it resolves), the naming
 * mode, KO_DOCKER_REPO and KO_CONFIG_PATH from the shell environment. Resolving
 * them against the tree (Go module, `.ko.yaml`) is recipe.ts.
 */
import * as path from 'node:path';
import { namingOf, type KoNaming } from './naming.js';

export interface KoRequest {
  verb: string;
  /** Import path arguments as written (`./cmd/app`, `github.com/acme/app/cmd/app`, `ko://…`). */
  imports: string[];
  /** `-f` files or directories (absolute; `-` is stdin) whose `ko://` refs are built. */
  files: string[];
  recursive: boolean;
  /** Absolute directory ko runs in. */
  cwd: string;
  naming: KoNaming;
  /** KO_DOCKER_REPO as the environment has it (may hold an unknown marker); undefined when unset. */
  dockerRepo?: string;
  /** KO_CONFIG_PATH, when set. */
  configPath?: string;
  /** `-t/--tags`, when given (default `latest`). */
  tags: string[];
  platforms: string[];
}

const BUILD_VERBS = new Set(['build', 'publish']);
const RESOLVE_VERBS = new Set(['resolve', 'apply', 'create', 'run']);
/** ko flags that take a value as the next argument. */
const VALUE_FLAGS = new Set(['-t', '--tags', '--platform', '--image-refs', '--image-label', '--image-annotation', '--image-user', '--sbom', '--sbom-dir', '--tag-only', '-j', '--jobs', '--debug', '--disable-optimizations', '-l', '--selector', '--tarball', '--oci-layout-path', '--insecure-registry']);
const NAMING_FLAGS = new Set(['--bare', '-B', '--base-import-paths', '-P', '--preserve-import-paths']);

/** The ko invocation `argv` is, or undefined when it is not a ko build. */
export function readKoArgs(argv: readonly string[], cwd: string, env: ReadonlyMap<string, string>): KoRequest | undefined {
  if (path.posix.basename(argv[0] ?? '') !== 'ko') return undefined;
  let i = 1;
  while (i < argv.length && argv[i]!.startsWith('-')) i++;
  const verb = argv[i];
  if (verb === undefined || (!BUILD_VERBS.has(verb) && !RESOLVE_VERBS.has(verb))) return undefined;
  const req: KoRequest = { verb, imports: [], files: [], recursive: false, cwd, naming: 'md5', tags: [], platforms: [] };
  const naming: string[] = [];
  const dockerRepo = env.get('KO_DOCKER_REPO');
  if (dockerRepo !== undefined && dockerRepo !== '') req.dockerRepo = dockerRepo;
  const configPath = env.get('KO_CONFIG_PATH');
  if (configPath) req.configPath = configPath;
  const args = argv.slice(i + 1);
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const flag = eq === -1 ? a : a.slice(0, eq);
    if (a === '--') {
      if (RESOLVE_VERBS.has(verb)) break; // `ko run … -- args`, `ko apply … -- kubectl flags`
      continue;
    }
    if (NAMING_FLAGS.has(flag)) {
      naming.push(a);
      continue;
    }
    if (flag === '-R' || flag === '--recursive') {
      req.recursive = eq === -1 || a.slice(eq + 1) !== 'false';
      continue;
    }
    if (flag === '-f' || flag === '--filename' || /^-f./.test(a)) {
      const v = eq !== -1 ? a.slice(eq + 1) : /^-f./.test(a) ? a.slice(2) : args[++k];
      if (v !== undefined) req.files.push(v === '-' ? '-' : path.resolve(cwd, v));
      continue;
    }
    if (VALUE_FLAGS.has(flag)) {
      const v = eq !== -1 ? a.slice(eq + 1) : args[++k];
      if (v === undefined) continue;
      if (flag === '-t' || flag === '--tags') req.tags.push(...v.split(','));
      if (flag === '--platform') req.platforms.push(...v.split(','));
      continue;
    }
    if (a.startsWith('-')) continue;
    if (BUILD_VERBS.has(verb)) req.imports.push(a);
    else if (verb === 'run' && req.imports.length === 0) req.imports.push(a);
  }
  if (BUILD_VERBS.has(verb) && req.imports.length === 0) req.imports.push('.');
  req.naming = namingOf(naming);
  return req;
}
