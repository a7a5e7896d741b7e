/**
 * Compose pins: an included compose file (`compose*.y*ml`, `docker-compose*.y*ml`)
 * is collected as YAML, where an `image:` spelled with variables
 * (`${REGISTRY:-ghcr.io/acme}/api:${TAG}`) is no reference. Here each such
 * `image:` (of a service, or of an `x-` extension field the services merge in
 * with `<<: *defaults`, as getsentry/self-hosted's `x-snuba-defaults` is:
 * compose interpolates the whole file) is interpolated from the project `.env` beside the
 * file, as compose does: fully resolved, it is a pin of the image it names (with
 * no spans: repin and overlay leave it as written); with a variable the
 * repository does not set, it is a `compose-variable-unset` problem at its line,
 * never a ref named `${IMAGE_NAME}`.
 */
import { dirname, join, posix } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, type Scalar } from 'yaml';
import { IMAGE_VALUE_LEFT_OUT, parseYamlDocument } from '../collect/index.js';
import type { CollectResult } from '../collect/index.js';
import { formOf, type Pin, type Problem } from '../model/index.js';
import { tryParseReference } from '../reference/index.js';
import { interpolateCompose, parseDotEnv } from '../util/compose-interpolate.js';
import { readRegularText } from '../util/safe-read.js';

const COMPOSE_FILE = /^(docker-)?compose([.-][A-Za-z0-9_.-]+)?\.ya?ml$/;

export function isComposeFile(file: string): boolean {
  return COMPOSE_FILE.test(posix.basename(file));
}

/** The collected result of a compose file with its interpolated `image:` pins added in place of their invalid-ref problems. */
export function interpolateComposePins(abs: string, file: string, result: CollectResult, isFirstParty: (repository: string) => boolean): CollectResult {
  const read = readRegularText(abs);
  if (!('text' in read)) return result;
  const lc = new LineCounter();
  const doc = parseYamlDocument(read.text, { lineCounter: lc, prettyErrors: false, uniqueKeys: false });
  const services = isMap(doc.contents) ? doc.contents.get('services', true) : undefined;
  if (doc.errors.length > 0 || !isMap(services)) return result;
  let env: Map<string, string> | undefined;
  const pins: Pin[] = [];
  const problems: Problem[] = [];
  const replaced = new Set<number>();
  for (const { keyPath, image } of imageScalars(doc.contents, '')) {
    if (typeof image.value !== 'string' || !image.value.includes('$') || !image.range) continue;
    const pos = lc.linePos(image.range[0]);
    env ??= projectEnv(abs);
    const r = interpolateCompose(image.value, env);
    replaced.add(pos.line);
    const ref = r.unknowns.length === 0 && !r.error ? tryParseReference(r.text) : undefined;
    if (ref) {
      pins.push({ file, line: pos.line, column: pos.col, keyPath, shape: 'yaml-string', spans: [], raw: r.text, ref, form: formOf(ref), firstParty: isFirstParty(ref.name) });
      continue;
    }
    const why = r.error ?? (r.unknowns.length ? r.unknowns.map((u) => u.reason).join('; ') : `"${r.text}" is not an image reference`);
    problems.push({ file, line: pos.line, column: pos.col, code: 'compose-variable-unset', reason: `${keyPath} "${image.value}" names no image in the repository: ${why}` });
  }
  if (replaced.size === 0) return result;
  // the collector left a `${VAR}` image value out as a placeholder (or, `$VAR`, made it an invalid ref): compose interpolates it here
  const leftOut = result.leftOut?.filter((l) => !(l.reason === IMAGE_VALUE_LEFT_OUT.placeholder && l.line !== undefined && replaced.has(l.line)));
  return {
    ...result,
    pins: [...result.pins, ...pins],
    problems: [...result.problems.filter((p) => !(p.code === 'invalid-ref' && p.line !== undefined && replaced.has(p.line))), ...problems],
    ...(leftOut ? { leftOut } : {}),
  };
}

/** Every `image:` scalar of the document (aliases are not followed: the text is where the anchor is), with its key path. */
function* imageScalars(node: unknown, path: string): Generator<{ keyPath: string; image: Scalar }> {
  if (isMap(node)) {
    for (const pair of node.items) {
      if (!isScalar(pair.key)) continue;
      const keyPath = path ? `${path}.${String(pair.key.value)}` : String(pair.key.value);
      if (String(pair.key.value) === 'image' && isScalar(pair.value)) yield { keyPath, image: pair.value };
      else yield* imageScalars(pair.value, keyPath);
    }
  } else if (isSeq(node)) {
    for (const [i, item] of node.items.entries()) yield* imageScalars(item, `${path}[${i}]`);
  }
}

function projectEnv(abs: string): Map<string, string> {
  const read = readRegularText(join(dirname(abs), '.env'), { followSymlinks: true });
  return 'text' in read ? parseDotEnv(read.text).vars : new Map();
}
