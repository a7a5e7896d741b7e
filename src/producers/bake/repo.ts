/**
 * The docker-bake recipe kind at repository level: the bake files anywhere in
 * the tree (`docker-bake.hcl`, `docker-bake.json`, `docker-bake.*.hcl|json`),
 * minus the config's exclude globs and vendored trees, each read on its own.
 * An override file (`docker-bake.override.hcl|json`) only adds to the file
 * beside it when bake runs both, so it is reported, not read on its own.
 */
import { readFileSync } from '../../util/tracked-fs.js';
import * as path from 'node:path';
import type { Problem } from '../../model/index.js';
import type { BuildRecipe } from '../types.js';
import { readBake } from './reader.js';

export function readBakeFile(root: string, file: string, problems: Problem[]): BuildRecipe[] {
  if (/^docker-bake\.override\.(hcl|json)$/.test(path.posix.basename(file))) {
    problems.push({ file, line: 1, code: 'bake-override-not-read', reason: 'an override file changes the targets of the bake file beside it when both are passed to bake; pinwatch reads each bake file on its own, so this one is not read' });
    return [];
  }
  let text: string;
  try {
    text = readFileSync(path.join(root, file), 'utf8');
  } catch (e) {
    problems.push({ file, code: 'bake-unreadable', reason: `cannot read this bake file: ${e instanceof Error ? e.message : String(e)}` });
    return [];
  }
  return readBake(root, file, text, problems);
}
