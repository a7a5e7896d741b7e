/**
 * The goreleaser recipe kind at repository level: goreleaser configs anywhere
 * in the tree (`.goreleaser.yml|yaml`, `goreleaser.yml|yaml`, and
 * `.goreleaser.<name>.yml` variants), minus the config's exclude globs and
 * vendored trees, each read for the images it releases.
 */
import { readFileSync } from '../../util/tracked-fs.js';
import * as path from 'node:path';
import type { Problem } from '../../model/index.js';
import { findFilesNamed, listRecipeTree, type RecipeTree } from '../discover.js';
import type { BuildRecipe } from '../types.js';
import { readGoreleaser } from './reader.js';

const GORELEASER_FILE = /^\.?goreleaser(\.[A-Za-z0-9_-]+)*\.ya?ml$/;

/** Repo-relative goreleaser configs, sorted. */
export function findGoreleaserFiles(root: string, exclude: readonly string[], tree: RecipeTree = listRecipeTree(root, exclude)): string[] {
  // A workflow named goreleaser.yml runs goreleaser; it is not its config.
  return findFilesNamed(root, exclude, (name) => GORELEASER_FILE.test(name), tree).filter((f) => !f.startsWith('.github/workflows/'));
}

export function readGoreleaserFile(root: string, file: string, problems: Problem[]): BuildRecipe[] {
  let text: string;
  try {
    text = readFileSync(path.join(root, file), 'utf8');
  } catch (e) {
    problems.push({ file, code: 'goreleaser-unreadable', reason: `cannot read this goreleaser config: ${e instanceof Error ? e.message : String(e)}` });
    return [];
  }
  return readGoreleaser(root, file, text, problems);
}
