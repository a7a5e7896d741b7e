/**
 * The docker compose recipe kind at repository level: compose files anywhere
 * in the tree (`compose*.y*ml`, `docker-compose*.y*ml`), minus the config's
 * exclude globs and vendored trees, each read with the `.env` beside it (the
 * project directory's, which compose interpolates from). An override file
 * (`compose.override.yml`) takes the `image:` of the services of the file it is
 * merged into; other files are read on their own.
 */
import { readFileSync } from '../../util/tracked-fs.js';
import * as path from 'node:path';
import type { Problem } from '../../model/index.js';
import { readRegularText } from '../../util/safe-read.js';
import type { BuildRecipe } from '../types.js';
import { parseDotEnv } from '../../util/compose-interpolate.js';
import { readCompose, serviceImages } from './reader.js';

const OVERRIDE_FILE = /^(docker-)?compose\.override\.ya?ml$/;

/** The variables of the project `.env` beside a compose file (none when there is no such file), its problems reported. */
export function projectEnv(root: string, composeFile: string, problems: Problem[]): Map<string, string> {
  const rel = path.posix.join(path.posix.dirname(composeFile), '.env');
  const read = readRegularText(path.join(root, rel), { followSymlinks: true });
  if (!('text' in read)) return new Map();
  const { vars, problems: bad } = parseDotEnv(read.text);
  for (const p of bad) problems.push({ file: rel, line: p.line, code: 'compose-env-unreadable', reason: `${p.reason}; this line of the project .env is not read` });
  return vars;
}

export function readComposeFile(root: string, file: string, problems: Problem[]): BuildRecipe[] {
  let text: string;
  try {
    text = readFileSync(path.join(root, file), 'utf8');
  } catch (e) {
    problems.push({ file, code: 'compose-unreadable', reason: `cannot read this compose file: ${e instanceof Error ? e.message : String(e)}` });
    return [];
  }
  const env = projectEnv(root, file, problems);
  const override = OVERRIDE_FILE.exec(path.posix.basename(file));
  let base = new Map<string, string>();
  if (override) {
    // compose merges compose.override.yml into compose.yml (docker-compose.override.yml into docker-compose.yml).
    for (const ext of ['yaml', 'yml']) {
      const read = readRegularText(path.join(root, path.posix.dirname(file), `${override[1] ?? ''}compose.${ext}`), { followSymlinks: true });
      if ('text' in read) {
        base = serviceImages(read.text, env);
        break;
      }
    }
  }
  return readCompose(root, file, text, env, problems, base);
}
