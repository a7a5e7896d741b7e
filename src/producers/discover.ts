/**
 * Finds the build files in the tree — every Makefile (`Makefile`, `makefile`,
 * `GNUmakefile`) and the files other recipe kinds match by name — in one walk
 * pruning `.git`, the vendored trees (`vendor/`, `third_party/`,
 * `node_modules/`: counted, not read) and the config's exclude globs, and keeps
 * one loaded reader per (Makefile, directory, command-line variables).
 */
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { RECIPE_PRUNED_DIRS } from '../config/defaults.js';
import { compileGlob } from '../util/glob.js';
import { loadMakefile, type MakeReader } from '../make/index.js';

const MAKEFILE_NAMES = ['GNUmakefile', 'makefile', 'Makefile'];

/** The files of a repository that build recipes may be in (one walk), and the vendored trees left out. */
export interface RecipeTree {
  /** Repo-relative regular files, sorted. */
  files: string[];
  /** Repo-relative directories not walked because they are vendored (`vendor/`, `third_party/`, `node_modules/`), sorted. */
  vendored: string[];
}

/** Repo-relative paths of every regular file outside `.git`, the vendored trees and the exclude globs. */
export function listRecipeTree(root: string, exclude: readonly string[]): RecipeTree {
  const excluded = excludeMatcher(exclude);
  const files: string[] = [];
  const vendored: string[] = [];
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
      if (e.isDirectory()) {
        if (e.name === '.git') continue;
        if (RECIPE_PRUNED_DIRS.includes(e.name)) vendored.push(`${child}/`);
        else walk(child);
      } else if (e.isFile()) files.push(child);
    }
  };
  walk('');
  return { files: files.sort(), vendored: vendored.sort() };
}

/** Repo-relative paths of every Makefile, sorted. */
export function findMakefiles(root: string, exclude: readonly string[], tree = listRecipeTree(root, exclude)): string[] {
  return tree.files.filter((f) => MAKEFILE_NAMES.includes(path.posix.basename(f)));
}

/** Repo-relative paths of every file of the tree whose name `wanted` accepts, sorted; `tree` (listRecipeTree's result) saves the walk when several kinds look for their files. */
export function findFilesNamed(root: string, exclude: readonly string[], wanted: (name: string) => boolean, tree: RecipeTree = listRecipeTree(root, exclude)): string[] {
  return tree.files.filter((f) => wanted(path.posix.basename(f)));
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
