/** The Skaffold recipe kind at repository level: every skaffold.yaml / skaffold.yml in the tree (minus exclude globs), each read for its artifacts. */
import { readFileSync } from '../../util/tracked-fs.js';
import * as path from 'node:path';
import type { Problem } from '../../model/index.js';
import type { BuildRecipe } from '../types.js';
import { readSkaffold, type SkaffoldReadOptions } from './reader.js';

export function readSkaffoldFile(root: string, file: string, problems: Problem[], options: SkaffoldReadOptions = {}): BuildRecipe[] {
  let text: string;
  try {
    text = readFileSync(path.join(root, file), 'utf8');
  } catch (e) {
    problems.push({ file, code: 'skaffold-unreadable', reason: `cannot read this Skaffold config: ${e instanceof Error ? e.message : String(e)}` });
    return [];
  }
  return readSkaffold(root, file, text, problems, options);
}
