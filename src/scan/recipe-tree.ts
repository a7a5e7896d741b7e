/**
 * The listing of the tree that build-recipe discovery reads (producers/): every
 * regular file outside `.git`, the vendored trees (`vendor/`, `third_party/`,
 * `node_modules/`: listed as left out, not entered) and the config's exclude
 * globs. The scan's walk (walk.ts) records it in the same readdir pass when asked
 * (`walkTree(…, { recipeTree: true })`); listRecipeTree is the walk on its own,
 * for callers that have no scan. Both give the same listing (test/scan).
 */
import { readdirWalkSync } from '../util/tracked-fs.js';
import * as path from 'node:path';
import { RECIPE_PRUNED_DIRS } from '../config/defaults.js';
import { compileGlob } from '../util/glob.js';

/** The files of a repository that build recipes may be in (one walk), and the vendored trees left out. */
export interface RecipeTree {
  /** Repo-relative regular files, sorted. */
  files: string[];
  /** Repo-relative directories not walked because they are vendored (`vendor/`, `third_party/`, `node_modules/`), sorted. */
  vendored: string[];
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

/** What the listing does with one directory entry: `descend` into a directory, list a `file`, or nothing. */
export type RecipeEntryStep = 'descend' | 'file' | 'vendored' | 'skip';

/** The one rule both walks apply to an entry (`rel` repo-relative, `name` its last component). */
export function recipeEntryStep(rel: string, name: string, kind: { isDirectory(): boolean; isFile(): boolean }, excluded: (rel: string) => boolean): RecipeEntryStep {
  if (excluded(rel)) return 'skip';
  if (kind.isDirectory()) {
    if (name === '.git') return 'skip';
    return RECIPE_PRUNED_DIRS.includes(name) ? 'vendored' : 'descend';
  }
  return kind.isFile() ? 'file' : 'skip';
}

/** A listing being filled in by a walk; `done()` sorts it. */
export class RecipeTreeBuilder {
  readonly files: string[] = [];
  readonly vendored: string[] = [];
  readonly excluded: (rel: string) => boolean;

  constructor(exclude: readonly string[]) {
    this.excluded = excludeMatcher(exclude);
  }

  /** Record one entry; returns true when the walk should list the directory `rel` for the recipes. */
  entry(rel: string, name: string, kind: { isDirectory(): boolean; isFile(): boolean }): boolean {
    const step = recipeEntryStep(rel, name, kind, this.excluded);
    if (step === 'file') this.files.push(rel);
    else if (step === 'vendored') this.vendored.push(`${rel}/`);
    return step === 'descend';
  }

  done(): RecipeTree {
    return { files: this.files.sort(), vendored: this.vendored.sort() };
  }
}

/** Repo-relative paths of every regular file outside `.git`, the vendored trees and the exclude globs (its own walk). */
export function listRecipeTree(root: string, exclude: readonly string[]): RecipeTree {
  const tree = new RecipeTreeBuilder(exclude);
  const walk = (rel: string) => {
    let entries;
    try {
      entries = readdirWalkSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (tree.entry(child, e.name, e)) walk(child);
    }
  };
  walk('');
  return tree.done();
}
