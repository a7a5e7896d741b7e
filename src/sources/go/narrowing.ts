/**
 * Go narrowing: when a needed stage copies a Go module and runs `go build` /
 * `go install`, the copied directories are replaced by the in-module import
 * closure of the built packages (package directories, files directly in them),
 * plus go.mod, go.sum, vendor/, `//go:embed` patterns and local replace targets.
 */
import { posix } from 'node:path';
import type { ParsedDockerfile, RunOp, Stage } from '../../dockerfile/parse.js';
import { baseChain } from '../../dockerfile/stages.js';
import { containerMap, toRepoPath } from '../context-sources.js';
import type { ContainerMapping, ContextSource } from '../context-sources.js';
import { expandPackagePattern, goImportClosure } from './closure.js';
import type { GoClosure, GoRoot } from './closure.js';
import { fileReadingCommand, goInvocations } from './command.js';
import type { GoInvocation } from './command.js';
import { parseGoMod } from './gomod.js';
import { isGlob } from '../matcher.js';
import { dirPattern, isWithin, pathKind, repoJoin } from '../paths.js';
import type { InputPattern } from '../types.js';
import { readSourceText } from '../read.js';

export interface GoNarrowing {
  inputs: InputPattern[];
  /** Context sources replaced by the closure. */
  narrowed: Set<ContextSource>;
  ignore: string[];
  steps: string[];
}

interface GoBuild {
  chain: Set<number>;
  closure: GoClosure;
  label: string;
}


async function moduleDirOf(repoRoot: string, dir: string): Promise<string | undefined> {
  for (let d = dir; ; d = repoJoin(posix.dirname(d))) {
    if ((await pathKind(repoRoot, repoJoin(d, 'go.mod'))) === 'file') return d;
    if (d === '.') return undefined;
  }
}

/** The module path in `moduleDir`/go.mod, or why it cannot be read (pushed to `notes`). */
function modulePath(repoRoot: string, moduleDir: string, notes: string[]): string | undefined {
  const file = repoJoin(moduleDir, 'go.mod');
  const read = readSourceText(repoRoot, file);
  if ('refused' in read) notes.push(`${file}: ${read.refused}`);
  return 'text' in read ? parseGoMod(read.text).module : undefined;
}

interface RootsResult {
  roots: GoRoot[];
  moduleDir?: string;
  notes: string[];
}

async function resolveRoots(repoRoot: string, inv: GoInvocation, map: ContainerMapping[]): Promise<RootsResult> {
  const out: RootsResult = { roots: [], notes: [] };
  const cwd = toRepoPath(map, inv.cwd);
  const cwdModule = 'path' in cwd ? await moduleDirOf(repoRoot, cwd.path) : undefined;
  const files: string[] = [];
  const dirs: { dir: string; recursive: boolean }[] = [];
  for (const arg of inv.packages) {
    if (arg.includes('@')) {
      out.notes.push(`${arg} is a remote module version, not built from the tree`);
      continue;
    }
    const recursive = arg === '...' || arg.endsWith('/...');
    const base = recursive ? arg.slice(0, -3).replace(/\/$/, '') || '.' : arg;
    if (/^[./]/.test(base) || base.endsWith('.go')) {
      const r = toRepoPath(map, posix.resolve(inv.cwd, base));
      if ('reason' in r) {
        out.notes.push(`${arg}: ${r.reason}`);
        continue;
      }
      // a shell glob of files (`go build backend/src/apiserver/*.go`: kubeflow) is the package they are in, not one literal file
      if (base.endsWith('.go') && /[*?[]/.test(base)) dirs.push({ dir: posix.dirname(r.path), recursive: false });
      else if (base.endsWith('.go')) files.push(r.path);
      else dirs.push({ dir: r.path, recursive });
      continue;
    }
    const mod = cwdModule === undefined ? undefined : modulePath(repoRoot, cwdModule, out.notes);
    if (mod !== undefined && (base === mod || base.startsWith(`${mod}/`))) {
      dirs.push({ dir: repoJoin(cwdModule!, base.slice(mod.length + 1)), recursive });
    } else out.notes.push(`${arg} is not a package of the module copied into the image`);
  }
  const first = files[0] !== undefined ? posix.dirname(files[0]) : dirs[0]?.dir;
  if (first === undefined) return out;
  out.moduleDir = await moduleDirOf(repoRoot, repoJoin(first));
  if (out.moduleDir === undefined) {
    out.notes.push(`no go.mod at or above ${first}`);
    return out;
  }
  if (files.length > 0) out.roots.push({ dir: repoJoin(posix.dirname(files[0]!)), files });
  for (const d of dirs) {
    if (!d.recursive) out.roots.push({ dir: d.dir });
    else for (const dir of await expandPackagePattern(repoRoot, d.dir, out.moduleDir)) out.roots.push({ dir });
  }
  return out;
}

export function closureInputs(closure: GoClosure, label: string, rootDirs: Set<string>): InputPattern[] {
  const out: InputPattern[] = [];
  for (const pkg of closure.packages) {
    if (pkg.files) for (const f of pkg.files) out.push({ path: f, kind: 'file', why: label });
    else out.push({ path: dirPattern(pkg.dir), kind: 'files', why: rootDirs.has(pkg.dir) ? label : `go import ${pkg.importPath} (${label})` });
  }
  for (const e of closure.embeds) out.push({ path: e.pattern, kind: isGlob(e.pattern) ? 'glob' : 'tree', why: `//go:embed in ${e.from}` });
  for (const r of closure.localReplaces) out.push({ path: repoJoin(r.dir, 'go.mod'), kind: 'file', why: `replace ${r.from} => ${r.dir} (go.mod)` });
  return out;
}

export async function moduleFiles(repoRoot: string, moduleDir: string): Promise<InputPattern[]> {
  const out: InputPattern[] = [];
  for (const name of ['go.mod', 'go.sum']) {
    const path = repoJoin(moduleDir, name);
    if ((await pathKind(repoRoot, path)) === 'file') out.push({ path, kind: 'file', why: `Go module file (${moduleDir})` });
  }
  const vendor = repoJoin(moduleDir, 'vendor');
  if ((await pathKind(repoRoot, vendor)) === 'dir') out.push({ path: `${vendor}/`, kind: 'tree', why: 'Go vendor directory' });
  return out;
}

/**
 * The inputs of a Go main package built outside any Dockerfile (a goreleaser
 * binary or ko image): its in-module import closure, embeds and the module
 * files, or why they cannot be told.
 */
export async function goMainInputs(repoRoot: string, dir: string, label: string): Promise<{ inputs: InputPattern[]; ignore: string[]; steps: string[] } | { unknown: string }> {
  const moduleDir = await moduleDirOf(repoRoot, repoJoin(dir));
  if (moduleDir === undefined) return { unknown: `${label}: no go.mod at or above ${dir}` };
  const closure = await goImportClosure(repoRoot, moduleDir, [{ dir: repoJoin(dir) }]);
  if (typeof closure === 'string') return { unknown: `${label}: ${closure}` };
  const steps = [`${label} → ${closure.packages.length} package${closure.packages.length === 1 ? '' : 's'} in module ${closure.module}`, ...closure.problems.map((p) => `${label}: ${p}`)];
  for (const n of closure.nestedModules) steps.push(`${label}: import ${n.importPath} is in nested module ${n.moduleDir}, resolved from the module cache; not followed`);
  return { inputs: [...closureInputs(closure, label, new Set([repoJoin(dir)])), ...(await moduleFiles(repoRoot, closure.moduleDir))], ignore: closure.ignoredFiles.map((f) => f.path), steps };
}

async function goBuildsOf(repoRoot: string, context: string, parsed: ParsedDockerfile, stage: Stage, run: RunOp, name: string, result: GoNarrowing, closures: GoClosure[]): Promise<GoBuild[]> {
  const builds: GoBuild[] = [];
  const chain = baseChain(parsed.stages, stage);
  for (const inv of goInvocations(run.command, run.workdir)) {
    const label = `go ${inv.verb} ${inv.packages.join(' ')} (${name}:${run.line})`;
    // `./cmd/${CMD}` with CMD given no value here (a build arg known only when the build runs): any command may be built
    const unset = [inv.cwd, ...inv.packages].find((p) => /\$(?:\{|[A-Za-z_])/.test(p));
    if (unset !== undefined) {
      result.steps.push(`${label}: ${JSON.stringify(unset)} names a variable with no value here; no Go narrowing`);
      continue;
    }
    const map = await containerMap(repoRoot, context, chain, run);
    const roots = await resolveRoots(repoRoot, inv, map);
    for (const n of roots.notes) result.steps.push(`${label}: ${n}`);
    if (roots.moduleDir === undefined || roots.roots.length === 0) {
      result.steps.push(`${label}: sources not located in the tree; no Go narrowing`);
      continue;
    }
    // the go.mod the tree has above the sources is not what the build sees unless it is copied in (opentelemetry-operator's
    // e2e apps copy one main.go): then the module's closure and files are no inputs; the copied sources stay
    const goMod = repoJoin(roots.moduleDir, 'go.mod');
    if (!map.some((m) => m.repo !== undefined && isWithin(goMod, m.repo))) {
      result.steps.push(`${label}: ${goMod} is not copied into the build; no Go narrowing`);
      continue;
    }
    // its -tags, when nothing else can add some (GOFLAGS set by an ENV or ARG of the Dockerfile): files no tag set compiles are left out
    const tags = inv.tags !== undefined && !parsed.envNames.has('GOFLAGS') && !parsed.args.has('GOFLAGS') ? new Set(inv.tags) : undefined;
    const closure = await goImportClosure(repoRoot, roots.moduleDir, roots.roots, tags);
    if (typeof closure === 'string') {
      result.steps.push(`${label}: ${closure}; no Go narrowing`);
      continue;
    }
    const unsafe = chain
      .flatMap((s) => s.ops)
      .filter((op): op is RunOp => op.op === 'run')
      .map((op) => ({ line: op.line, command: fileReadingCommand(op.command) }))
      .find((u) => u.command !== undefined);
    result.steps.push(`${label} → ${closure.packages.length} package${closure.packages.length === 1 ? '' : 's'} in module ${closure.module}`);
    for (const p of closure.problems) result.steps.push(`${label}: ${p}`);
    for (const n of closure.nestedModules) result.steps.push(`${label}: import ${n.importPath} is in nested module ${n.moduleDir}, resolved from the module cache; not followed`);
    for (const f of closure.ignoredFiles) result.steps.push(`${f.path}: ${f.reason}; not compiled`);
    const rootDirs = new Set(roots.roots.filter((r) => !r.files).map((r) => r.dir));
    result.inputs.push(...closureInputs(closure, label, rootDirs), ...(await moduleFiles(repoRoot, closure.moduleDir)));
    closures.push(closure);
    if (unsafe) {
      result.steps.push(`RUN ${unsafe.command} (${name}:${unsafe.line}) may read any copied file; copied directories are kept whole`);
      continue;
    }
    builds.push({ chain: new Set(chain.map((s) => s.index)), closure, label });
  }
  return builds;
}

/**
 * The files a closure leaves out that no other build of the image compiles: one build's `-tags`
 * may leave out a file another's sets (`go build ./cmd/x` and `go build -tags e2e ./cmd/x-e2e`).
 */
function uncompiled(closures: readonly GoClosure[]): string[] {
  const compiled = (c: GoClosure, path: string) => c.packages.some((p) => (p.files ? p.files.includes(path) : p.dir === posix.dirname(path))) && !c.ignoredFiles.some((f) => f.path === path);
  return [...new Set(closures.flatMap((c) => c.ignoredFiles.map((f) => f.path)))].filter((path) => !closures.some((c) => compiled(c, path)));
}

/** Narrow the context sources of `needed` stages by the Go builds they run. */
export async function narrowGo(repoRoot: string, context: string, parsed: ParsedDockerfile, needed: Stage[], sources: ContextSource[], name: string): Promise<GoNarrowing> {
  const result: GoNarrowing = { inputs: [], narrowed: new Set(), ignore: [], steps: [] };
  const builds: GoBuild[] = [];
  const closures: GoClosure[] = [];
  for (const stage of needed) {
    for (const op of stage.ops) if (op.op === 'run') builds.push(...(await goBuildsOf(repoRoot, context, parsed, stage, op, name, result, closures)));
  }
  result.ignore.push(...uncompiled(closures));
  const narrowedModules = new Set<string>();
  for (const source of sources) {
    if (source.kind !== 'tree') continue;
    const build = builds.find((b) => b.chain.has(source.stage) && isWithin(source.path, b.closure.moduleDir) && !isWithin(source.path, repoJoin(b.closure.moduleDir, 'vendor')));
    if (!build) continue;
    result.narrowed.add(source);
    narrowedModules.add(build.closure.moduleDir);
    const kept = builds.flatMap((b) => b.closure.packages).filter((p) => isWithin(p.dir, source.path)).length;
    result.steps.push(`${source.why}: narrowed to the Go import closure (${kept} package director${kept === 1 ? 'y' : 'ies'} under ${dirPattern(source.path)})`);
  }
  for (const dir of narrowedModules) result.ignore.push(`${dir === '.' ? '' : `${dir}/`}**/*_test.go`);
  return result;
}
