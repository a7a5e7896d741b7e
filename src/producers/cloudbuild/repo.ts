/** The Cloud Build recipe kind at repository level: every cloudbuild.yaml / cloudbuild.yml (and cloudbuild-*.y*ml, *.cloudbuild.y*ml) in the tree, minus exclude globs. */
import { readFileSync } from '../../util/tracked-fs.js';
import * as path from 'node:path';
import type { Problem } from '../../model/index.js';
import type { BuildRecipe } from '../types.js';
import { readCloudBuild, type CloudBuildReadOptions } from './reader.js';

export function readCloudBuildFile(root: string, file: string, problems: Problem[], options: CloudBuildReadOptions = {}): BuildRecipe[] {
  let text: string;
  try {
    text = readFileSync(path.join(root, file), 'utf8');
  } catch (e) {
    problems.push({ file, code: 'cloudbuild-unreadable', reason: `cannot read this Cloud Build config: ${e instanceof Error ? e.message : String(e)}` });
    return [];
  }
  return readCloudBuild(root, file, text, problems, options);
}
