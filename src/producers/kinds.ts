/**
 * The recipe-kind layer: where each reader of build recipes plugs in behind the
 * one BuildRecipe model. The Makefile reader (`make`) is the one that also finds
 * producers and the build graph, so loadBuildModel runs it itself; every other
 * kind is listed here: it finds its files and reads the images they build.
 * Adding a kind is a folder under producers/ and one entry below. Every kind
 * but workflows finds its files in one shared listing of the tree (vendored
 * trees left out), so adding kinds adds no walks.
 */
import type { Problem } from '../model/index.js';
import type { BuildRecipe, FollowedMake, RecipeKind, RecipeReadOptions } from './types.js';
import { readBakeFile } from './bake/index.js';
import { readCloudBuildFile } from './cloudbuild/index.js';
import { readComposeFile } from './compose/index.js';
import { readGoreleaserFile } from './goreleaser/index.js';
import { listRecipeTree, type RecipeTree } from './discover.js';
import { RECIPE_FINDERS, type RecipeFinder } from './finders.js';
import { readSkaffoldFile } from './skaffold/index.js';
import { readWorkflowFile } from './workflows/index.js';

export interface RecipeReader {
  kind: RecipeKind;
  /** Repo-relative files of this kind, sorted; `exclude` is the config's exclude globs; `tree` the repository's files when already listed. */
  find(root: string, exclude: readonly string[], tree?: RecipeTree): string[];
  /** The recipes in one file; what cannot be read is a problem with file:line. */
  read(root: string, file: string, problems: Problem[], options?: RecipeReadOptions): BuildRecipe[];
}

const READS: Readonly<Record<string, RecipeReader['read']>> = {
  'github-actions': readWorkflowFile,
  bake: readBakeFile,
  compose: readComposeFile,
  goreleaser: readGoreleaserFile,
  skaffold: readSkaffoldFile,
  cloudbuild: readCloudBuildFile,
};

/** Each kind of finders.ts RECIPE_FINDERS (its files found there), with its reader. */
export const RECIPE_READERS: readonly RecipeReader[] = RECIPE_FINDERS.map((f: RecipeFinder) => ({ ...f, read: READS[f.kind]! }));

/** Every recipe of every non-Make kind in the repository, the files they were read from, and the makes they run; `env` is pinwatch.yaml `buildEnv`. */
export function readOtherRecipes(root: string, exclude: readonly string[], problems: Problem[], tree: RecipeTree = listRecipeTree(root, exclude), env: ReadonlyMap<string, string> = new Map()): { files: string[]; recipes: BuildRecipe[]; makes: FollowedMake[] } {
  const files: string[] = [];
  const recipes: BuildRecipe[] = [];
  const makes: FollowedMake[] = [];
  for (const reader of RECIPE_READERS) {
    for (const file of reader.find(root, exclude, tree)) {
      files.push(file);
      try {
        recipes.push(...reader.read(root, file, problems, { env, makes }));
      } catch (e) {
        problems.push({ file, code: 'recipe-internal-error', reason: `could not read this ${reader.kind} recipe file (a pinwatch bug; please report it): ${e instanceof Error ? e.message : String(e)}` });
      }
    }
  }
  return { files, recipes, makes };
}
