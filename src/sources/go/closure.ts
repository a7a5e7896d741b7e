/**
 * In-module Go import closure: from the packages a `go build` names, follow
 * imports under the module path (and under local `replace` targets) transitively,
 * skipping `_test.go` files, files whose build constraint can never hold, and
 * nested modules (a directory with its own go.mod is another module).
 */
import { posix } from 'node:path';
import { parseGoMod } from './gomod.js';
import type { GoMod } from './gomod.js';
import { buildableWith, readGoSource } from './gosource.js';
import type { GoSourceInfo } from './gosource.js';
import { readSourceAbs, readSourceText } from '../read.js';
import { readdirOnce, statOnce } from '../memo.js';
import { recording } from '../../util/tracked-fs.js';

export interface GoRoot {
  /** Repo-relative package directory. */
  dir: string;
  /** When the build names `.go` files, only those files (repo-relative) make the package. */
  files?: string[];
}

export interface GoPackage {
  dir: string;
  importPath: string;
  /** Set for a package built from named files: only those files are inputs. */
  files?: string[];
}

export interface GoClosure {
  module: string;
  moduleDir: string;
  packages: GoPackage[];
  /** `//go:embed` patterns, repo-relative. */
  embeds: { pattern: string; from: string }[];
  /** Go files left out of the build (constraint never holds). */
  ignoredFiles: { path: string; reason: string }[];
  /** Local replace targets (repo-relative directories). */
  localReplaces: { from: string; dir: string }[];
  /** Imports under the module path that live in a nested module, not followed. */
  nestedModules: { importPath: string; moduleDir: string }[];
  problems: string[];
}

interface ModuleContext {
  repoRoot: string;
  module: string;
  moduleDir: string;
  mod: GoMod;
  /** Import-path prefix → repo-relative directory, longest prefix first. */
  roots: { prefix: string; dir: string }[];
  /** The custom tags the build sets (its `-tags`), when known: files whose constraint needs another are not compiled. */
  tags?: ReadonlySet<string>;
}

function join(...parts: string[]): string {
  const p = posix.normalize(parts.filter((x) => x !== '' && x !== '.').join('/'));
  return p === '.' || p === '' ? '.' : p.replace(/\/$/, '');
}

async function isFile(path: string): Promise<boolean> {
  return (await statOnce(path))?.isFile() ?? false;
}

async function isDirectory(path: string): Promise<boolean> {
  return (await statOnce(path))?.isDirectory() ?? false;
}

/** Repo-relative directory holding an import path, or why it is not in the module. */
async function resolveImport(ctx: ModuleContext, importPath: string): Promise<{ dir: string } | { nested: string } | undefined> {
  for (const root of ctx.roots) {
    if (importPath !== root.prefix && !importPath.startsWith(`${root.prefix}/`)) continue;
    const rest = importPath.slice(root.prefix.length + 1);
    const dir = join(root.dir, rest);
    let probe = root.dir;
    for (const seg of rest === '' ? [] : rest.split('/')) {
      probe = join(probe, seg);
      if (ctx.roots.some((r) => r.dir === probe)) break;
      if (await isFile(posix.join(ctx.repoRoot, probe, 'go.mod'))) return { nested: probe };
    }
    return { dir };
  }
  return undefined;
}

function importPathOf(ctx: ModuleContext, dir: string): string {
  for (const root of ctx.roots) {
    if (dir === root.dir) return root.prefix;
    if (root.dir === '.' || dir.startsWith(`${root.dir}/`)) return `${root.prefix}/${root.dir === '.' ? dir : dir.slice(root.dir.length + 1)}`;
  }
  return dir;
}

/** Parsed Go files by absolute path, valid while mtime and size are unchanged: many images share packages. */
const goFileCache = new Map<string, { mtimeMs: number; size: number; info: GoSourceInfo }>();
const GO_FILE_CACHE_LIMIT = 200_000;

/** The parsed file, or why it cannot be read. */
async function readGoFile(abs: string): Promise<GoSourceInfo | string> {
  const st = await statOnce(abs);
  if (!st) return 'does not exist';
  const hit = goFileCache.get(abs);
  // while the tree-state snapshot records (util/tracked-fs.ts), every file is read, so its content is in the record
  if (hit && !recording() && st.isFile() && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.info;
  const read = readSourceAbs(abs);
  if (!('text' in read)) return 'missing' in read ? 'does not exist' : read.refused;
  const info = readGoSource(read.text);
  if (goFileCache.size >= GO_FILE_CACHE_LIMIT) goFileCache.clear();
  goFileCache.set(abs, { mtimeMs: st.mtimeMs, size: st.size, info });
  return info;
}

interface LoadedPackage {
  imports: Set<string>;
  embeds: string[];
  buildable: number;
}

async function loadPackage(ctx: ModuleContext, dir: string, only: string[] | undefined, out: GoClosure): Promise<LoadedPackage> {
  const result: LoadedPackage = { imports: new Set(), embeds: [], buildable: 0 };
  let names: string[];
  if (only) names = only.map((f) => posix.basename(f));
  else {
    try {
      // not only regular files: go build follows a symlinked .go file, and a FIFO or
      // device named *.go is reported by readGoFile rather than silently left out
      const entries = (await readdirOnce(posix.join(ctx.repoRoot, dir))).filter(
        (e) => !e.isDirectory() && e.name.endsWith('.go') && !e.name.endsWith('_test.go') && !/^[._]/.test(e.name),
      );
      names = [];
      for (const e of entries) if (!(e.isSymbolicLink() && (await isDirectory(posix.join(ctx.repoRoot, dir, e.name))))) names.push(e.name);
      names.sort();
    } catch {
      out.problems.push(`package directory ${dir} does not exist`);
      return result;
    }
  }
  for (const name of names) {
    const path = join(dir, name);
    const info = await readGoFile(posix.join(ctx.repoRoot, path));
    if (typeof info === 'string') {
      out.problems.push(`${path}: ${info}`);
      continue;
    }
    if (!buildableWith(info, ctx.tags)) {
      const set = [...(ctx.tags ?? [])];
      out.ignoredFiles.push({ path, reason: info.constraint ?? `${info.constraintLine ?? 'its build constraint'} does not hold for a build with ${set.length > 0 ? `-tags ${set.join(',')}` : 'no -tags'}` });
      continue;
    }
    result.buildable++;
    for (const i of info.imports) result.imports.add(i);
    for (const e of info.embeds) result.embeds.push(join(dir, e.replace(/^all:/, '')));
  }
  return result;
}

async function moduleContext(repoRoot: string, moduleDir: string): Promise<ModuleContext | string> {
  const read = readSourceText(repoRoot, join(moduleDir, 'go.mod'));
  if ('missing' in read) return `${join(moduleDir, 'go.mod')} does not exist`;
  if ('refused' in read) return `${join(moduleDir, 'go.mod')}: ${read.refused}`;
  const mod = parseGoMod(read.text);
  if (!mod.module) return `${join(moduleDir, 'go.mod')} has no module line`;
  const roots = [{ prefix: mod.module, dir: moduleDir }];
  for (const r of mod.replaces) if (r.local) roots.push({ prefix: r.from, dir: join(moduleDir, r.to) });
  roots.sort((a, b) => b.prefix.length - a.prefix.length);
  return { repoRoot, module: mod.module, moduleDir, mod, roots };
}

/**
 * The closure of `roots` inside the module at `moduleDir` (repo-relative).
 * Returns a string when the module cannot be read.
 */
export async function goImportClosure(repoRoot: string, moduleDir: string, roots: GoRoot[], tags?: ReadonlySet<string>): Promise<GoClosure | string> {
  const found = await moduleContext(repoRoot, moduleDir);
  if (typeof found === 'string') return found;
  const ctx: ModuleContext = tags ? { ...found, tags } : found;
  const out: GoClosure = {
    module: ctx.module,
    moduleDir,
    packages: [],
    embeds: [],
    ignoredFiles: [],
    localReplaces: ctx.mod.replaces.filter((r) => r.local).map((r) => ({ from: r.from, dir: join(moduleDir, r.to) })),
    nestedModules: [],
    problems: ctx.mod.problems.map((p) => `${join(moduleDir, 'go.mod')}:${p.line}: ${p.reason}`),
  };
  const seen = new Set<string>();
  const queue: GoRoot[] = [...roots];
  while (queue.length > 0) {
    const { dir, files } = queue.shift()!;
    const key = files ? `${dir}#${files.join(',')}` : dir;
    if (seen.has(key)) continue;
    seen.add(key);
    const pkg = await loadPackage(ctx, dir, files, out);
    out.packages.push({ dir, importPath: importPathOf(ctx, dir), files });
    if (pkg.buildable === 0 && !files) out.problems.push(`${dir}: no buildable Go files`);
    for (const e of pkg.embeds) out.embeds.push({ pattern: e, from: dir });
    for (const imp of [...pkg.imports].sort()) {
      const r = await resolveImport(ctx, imp);
      if (!r) continue;
      if ('nested' in r) {
        if (!out.nestedModules.some((n) => n.importPath === imp)) out.nestedModules.push({ importPath: imp, moduleDir: r.nested });
        continue;
      }
      if (!seen.has(r.dir)) queue.push({ dir: r.dir });
    }
  }
  out.packages.sort((a, b) => a.dir.localeCompare(b.dir));
  return out;
}

/** Directories under `base` (repo-relative) that `./base/...` names: not testdata, `_`/`.` dirs, vendor or nested modules. */
export async function expandPackagePattern(repoRoot: string, base: string, moduleDir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdirOnce(posix.join(repoRoot, dir));
    } catch {
      return;
    }
    if (dir !== moduleDir && entries.some((e) => e.isFile() && e.name === 'go.mod')) return;
    if (entries.some((e) => e.isFile() && e.name.endsWith('.go') && !e.name.endsWith('_test.go') && !/^[._]/.test(e.name))) out.push(dir);
    for (const e of entries) {
      if (!e.isDirectory() || /^[._]/.test(e.name) || e.name === 'testdata' || e.name === 'vendor') continue;
      await walk(join(dir, e.name));
    }
  };
  await walk(base);
  return out.sort();
}
