/**
 * Skaffold artifact placeholders: a manifest image that names a Skaffold
 * artifact (`image: frontend` for artifact `frontend`, with no tag or digest)
 * is not docker.io/library/frontend but the place Skaffold writes the image it
 * built. Such pins become source refs (form `source`, builder `skaffold`). The
 * artifacts are those of skaffold.yaml (or .yml) at the root and of the configs
 * it `requires` (one level), read with the one Skaffold parser in collect/.
 */
import { readFileSync, statSync } from '../util/tracked-fs.js';
import * as path from 'node:path';
import { parseSkaffold } from '../collect/index.js';
import type { Pin } from '../model/index.js';
import { tryParseReference } from '../reference/index.js';

function readText(abs: string): string | undefined {
  try {
    if (!statSync(abs).isFile()) return undefined;
    return readFileSync(abs, 'utf8');
  } catch {
    return undefined;
  }
}

/** Artifact image names of the root Skaffold config and the local configs it requires, normalised to repositories. */
export function skaffoldArtifactNames(root: string): Map<string, string> {
  const names = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (abs: string, depth: number) => {
    if (seen.has(abs)) return;
    seen.add(abs);
    const text = readText(abs);
    if (text === undefined || !text.includes('skaffold/')) return;
    const parsed = parseSkaffold(text);
    for (const a of parsed.artifacts) {
      const ref = tryParseReference(a.image);
      if (ref && ref.tag === undefined && ref.digest === undefined) names.set(ref.name, a.image);
    }
    if (depth > 0) return;
    for (const r of parsed.requires) {
      const target = path.resolve(path.dirname(abs), r.path);
      if (path.relative(root, target).startsWith('..')) continue;
      const isDir = (() => {
        try {
          return statSync(target).isDirectory();
        } catch {
          return false;
        }
      })();
      visit(isDir ? path.join(target, 'skaffold.yaml') : target, depth + 1);
    }
  };
  for (const name of ['skaffold.yaml', 'skaffold.yml']) visit(path.join(root, name), 0);
  return names;
}

/** Mark the pins that name a Skaffold artifact (no tag, no digest) as its placeholders. */
export function markSkaffoldPlaceholders(root: string, pins: Pin[]): void {
  const names = skaffoldArtifactNames(root);
  if (names.size === 0) return;
  for (const pin of pins) {
    if (pin.source || pin.incomplete || pin.ref.tag !== undefined || pin.ref.digest !== undefined) continue;
    const artifact = names.get(pin.ref.name);
    if (artifact === undefined) continue;
    pin.form = 'source';
    pin.source = { builder: 'skaffold', name: artifact };
  }
}
