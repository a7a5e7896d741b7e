/**
 * The goreleaser recipe kind at repository level: goreleaser configs anywhere
 * in the tree (`.goreleaser.yml|yaml`, `goreleaser.yml|yaml`, and
 * `.goreleaser.<name>.yml` variants), minus the config's exclude globs and
 * vendored trees, each read for the images it releases.
 */
import { readFileSync } from '../../util/tracked-fs.js';
import * as path from 'node:path';
import type { Problem } from '../../model/index.js';
import type { BuildRecipe } from '../types.js';
import { readGoreleaser } from './reader.js';

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
