/**
 * Where each recipe kind's files are: found by name in the one listing of the
 * tree (scan/recipe-tree.ts), except workflows, read from `.github/workflows`.
 * This is the one home of the names: the readers (kinds.ts RECIPE_READERS) and
 * the tree-state snapshot's check (snapshot/check.ts: is a new file one a recipe
 * kind would read?) both ask here, and this module loads no reader.
 */
import * as path from 'node:path';
import { readdirSync } from '../util/tracked-fs.js';
import { excludeMatcher, listRecipeTree, type RecipeTree } from '../scan/recipe-tree.js';
import type { RecipeKind } from './types.js';

/** The names `make` reads in a directory, in its order. */
export const MAKEFILE_NAMES = ['GNUmakefile', 'makefile', 'Makefile'];

export const WORKFLOWS_DIR = '.github/workflows';

const BAKE_FILE = /^docker-bake(\.[A-Za-z0-9_-]+)*\.(hcl|json)$/;
const COMPOSE_FILE = /^(docker-)?compose([.-][A-Za-z0-9_.-]+)?\.ya?ml$/;
const GORELEASER_FILE = /^\.?goreleaser(\.[A-Za-z0-9_-]+)*\.ya?ml$/;
const CLOUDBUILD_FILE = /^(?:cloudbuild(?:[-_.][A-Za-z0-9_.-]+)?|[A-Za-z0-9_.-]+[-_.]cloudbuild)\.ya?ml$/;

const basenames = new WeakMap<readonly string[], string[]>();

/** Each file's name (its last path component), worked out once per listing: every recipe kind looks for its files by name. */
function namesOf(files: readonly string[]): string[] {
  let names = basenames.get(files);
  if (!names) basenames.set(files, (names = files.map((f) => f.slice(f.lastIndexOf('/') + 1))));
  return names;
}

/** Repo-relative paths of every file of the tree whose name `wanted` accepts, sorted; `tree` (listRecipeTree's result) saves the walk when several kinds look for their files. */
export function findFilesNamed(root: string, exclude: readonly string[], wanted: (name: string) => boolean, tree: RecipeTree = listRecipeTree(root, exclude)): string[] {
  const names = namesOf(tree.files);
  return tree.files.filter((_, i) => wanted(names[i]!));
}

/** Repo-relative paths of every Makefile, sorted. */
export function findMakefiles(root: string, exclude: readonly string[], tree = listRecipeTree(root, exclude)): string[] {
  return findFilesNamed(root, exclude, (name) => MAKEFILE_NAMES.includes(name), tree);
}

/** Repo-relative workflow files, sorted. */
export function findWorkflows(root: string, exclude: readonly string[]): string[] {
  const excluded = excludeMatcher(exclude);
  let names: string[];
  try {
    names = readdirSync(path.join(root, WORKFLOWS_DIR), { withFileTypes: true })
      .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
      .map((e) => e.name);
  } catch {
    return [];
  }
  return names.map((n) => `${WORKFLOWS_DIR}/${n}`).filter((f) => !excluded(f)).sort();
}

/** Repo-relative bake files, sorted. */
export function findBakeFiles(root: string, exclude: readonly string[], tree: RecipeTree = listRecipeTree(root, exclude)): string[] {
  return findFilesNamed(root, exclude, (name) => BAKE_FILE.test(name), tree);
}

/** Repo-relative compose files, sorted. */
export function findComposeFiles(root: string, exclude: readonly string[], tree: RecipeTree = listRecipeTree(root, exclude)): string[] {
  return findFilesNamed(root, exclude, (name) => COMPOSE_FILE.test(name), tree);
}

/** Repo-relative goreleaser configs, sorted. */
export function findGoreleaserFiles(root: string, exclude: readonly string[], tree: RecipeTree = listRecipeTree(root, exclude)): string[] {
  // A workflow named goreleaser.yml runs goreleaser; it is not its config.
  return findFilesNamed(root, exclude, (name) => GORELEASER_FILE.test(name), tree).filter((f) => !f.startsWith(`${WORKFLOWS_DIR}/`));
}

/** Names Skaffold looks for: `skaffold.yaml` (the default `-f`) and `skaffold.yml`. */
export function isSkaffoldName(name: string): boolean {
  return name === 'skaffold.yaml' || name === 'skaffold.yml';
}

export function findSkaffoldFiles(root: string, exclude: readonly string[], tree?: RecipeTree): string[] {
  return findFilesNamed(root, exclude, isSkaffoldName, tree);
}

export function isCloudBuildName(name: string): boolean {
  return CLOUDBUILD_FILE.test(name);
}

export function findCloudBuildFiles(root: string, exclude: readonly string[], tree?: RecipeTree): string[] {
  return findFilesNamed(root, exclude, isCloudBuildName, tree);
}

/** How a recipe kind finds its files: `exclude` the config's exclude globs, `tree` the repository's files when already listed. */
export interface RecipeFinder {
  kind: RecipeKind;
  find(root: string, exclude: readonly string[], tree?: RecipeTree): string[];
}

/** Every recipe kind but Makefiles (loadBuildModel reads those itself), in the order they are read. */
export const RECIPE_FINDERS: readonly RecipeFinder[] = [
  { kind: 'github-actions', find: findWorkflows },
  { kind: 'bake', find: findBakeFiles },
  { kind: 'compose', find: findComposeFiles },
  { kind: 'goreleaser', find: findGoreleaserFiles },
  { kind: 'skaffold', find: findSkaffoldFiles },
  { kind: 'cloudbuild', find: findCloudBuildFiles },
];
