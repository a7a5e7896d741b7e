/**
 * Finds every Makefile in the tree (`Makefile`, `makefile`, `GNUmakefile`),
 * pruning `.git`, `node_modules` and the config's exclude globs, and keeps one
 * loaded reader per (Makefile, directory, command-line variables).
 */
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { compileGlob } from '../util/glob.js';
import { loadMakefile, type MakeReader } from '../make/index.js';

const MAKEFILE_NAMES = ['GNUmakefile', 'makefile', 'Makefile'];
const PRUNED = new Set(['.git', 'node_modules']);

/** Repo-relative paths of every Makefile, sorted. */
export function findMakefiles(root: string, exclude: readonly string[], tree?: readonly string[]): string[] {
  return findFilesNamed(root, exclude, (name) => MAKEFILE_NAMES.includes(name), tree);
}

/**
 * Repo-relative paths of every file whose name `wanted` accepts (pruning as for Makefiles), sorted.
 * `tree` (listTree's result) saves the walk when several kinds look for their files.
 */
export function findFilesNamed(root: string, exclude: readonly string[], wanted: (name: string) => boolean, tree?: readonly string[]): string[] {
  if (tree) return tree.filter((f) => wanted(f.slice(f.lastIndexOf('/') + 1)));
  const excluded = excludeMatcher(exclude);
  const out: string[] = [];
  const walk = (rel: string) => {
    let entries;
    try {
      entries = readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (excluded(child)) continue;
      if (e.isDirectory() && !PRUNED.has(e.name)) walk(child);
      else if (e.isFile() && wanted(e.name)) out.push(child);
    }
  };
  walk('');
  return out.sort();
}

/** Every file of the tree (pruning `.git`, `node_modules` and the exclude globs), repo-relative and sorted: one walk for every recipe kind. */
export function listTree(root: string, exclude: readonly string[]): string[] {
  return findFilesNamed(root, exclude, () => true);
}

/** A repo-relative path matcher for the config's `exclude` globs (`dir/` prefixes and globs). */
export function excludeMatcher(patterns: readonly string[]): (rel: string) => boolean {
  const tests = patterns.map((p) => {
    if (p.endsWith('/')) return (rel: string) => rel === p.slice(0, -1) || rel.startsWith(p);
    const m = compileGlob(p);
    return (rel: string) => m(rel);
  });
  return (rel) => tests.some((t) => t(rel));
}

/** The Makefile `make` reads in a directory: GNUmakefile, makefile, Makefile. */
export function defaultMakefileIn(dirAbs: string, exists: (abs: string) => boolean): string | undefined {
  return MAKEFILE_NAMES.map((n) => path.join(dirAbs, n)).find(exists);
}

export class MakefileCache {
  private readonly readers = new Map<string, MakeReader>();

  constructor(private readonly root: string) {}

  get(absMakefile: string, dir = path.dirname(absMakefile), variables: Record<string, string> = {}, environment?: Record<string, string>): MakeReader {
    const key = `${absMakefile}\0${dir}\0${JSON.stringify(variables)}${environment ? `\0${JSON.stringify(environment)}` : ''}`;
    let r = this.readers.get(key);
    if (!r) {
      r = loadMakefile(absMakefile, { root: this.root, dir, variables, ...(environment ? { environment } : {}) });
      this.readers.set(key, r);
    }
    return r;
  }

  all(): MakeReader[] {
    return [...this.readers.values()];
  }
}
