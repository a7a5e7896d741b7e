/**
 * Which producer writes stamp a pin: the one rule that explain (`producersFor`),
 * lint (`lint()`, `lintRepo`), `describeProducers`, recipes and repin share.
 *
 * A write names a file and, for YAML, a key path. In the pin's file it covers:
 * - a pin at the same key, at a key inside it (`images` covers `images[0]` and
 *   `a.image.tag`) or at a key above it (a split map `a.image` is stamped by
 *   writes to `a.image.tag` and `a.image.digest`);
 * - any pin when it has no key path (`> images/x.tag`, `sed -i` on a file),
 *   but only the pins on the lines it edits when it says so
 *   (`sed -i 's|image: .*foo|…|'`; a place given without a line is not narrowed).
 *
 * A declared write may be narrower: a glob file covers every file it matches,
 * `image` covers only pins of that repository, and a whole-file write without
 * an image only first-party pins (when the place says which it is).
 *
 * A write with a key path does NOT cover a pin without one. Such a pin is one
 * pinwatch could not place in the YAML tree: a ref scraped from a file that did
 * not parse, or a line of a declared text file. Nothing shows the write reaches
 * it, and counting it would mark every such pin of the file as stamped by every
 * keyed write: two producers writing two keys would make each scraped pin a
 * `multiple-producers` finding, and a pin nobody writes would lose its
 * `no-producer` finding. Not counting it fails safe: a first-party one is
 * reported `no-producer`, next to the `unparsed-file` finding saying why.
 */
import type { Pin } from '../model/index.js';
import { tryParseReference } from '../reference/index.js';
import { compileGlob, type GlobMatcher } from '../util/glob.js';
import type { BuildModel, PinWrite, Producer } from './types.js';

/** A producer write that covers a pin. */
export interface PinStamp {
  producer: Producer;
  write: PinWrite;
}

/** Where a pin sits: what the stamp rule reads of it. A `Pin` is one. */
export type PinPlace = Pick<Pin, 'file' | 'keyPath'> & { line?: number; ref?: Pick<Pin['ref'], 'name'>; firstParty?: boolean; incomplete?: string };

const globs = new Map<string, GlobMatcher>();
function fileMatches(write: PinWrite, file: string): boolean {
  if (!write.glob) return write.file === file;
  let m = globs.get(write.file);
  if (!m) globs.set(write.file, (m = compileGlob(write.file)));
  return m(file);
}

/** `image` of a declared write as a normalised repository (`argoproj/argocd` → `docker.io/argoproj/argocd`). */
function imageName(image: string): string {
  return tryParseReference(image)?.name ?? image;
}

/** The declared narrowing by image or party; a place that does not say (no ref) is not narrowed. */
function imageMatches(write: PinWrite, place: PinPlace): boolean {
  if (write.image !== undefined) return place.ref === undefined || (place.incomplete === undefined && place.ref.name === imageName(write.image));
  if (write.firstPartyOnly) return place.firstParty !== false;
  return true;
}

/** `.a["b"].c[0]` → `a.b.c[0]`: the dot form pins use. */
export function normalizeKeyPath(path: string): string {
  return path
    .trim()
    .replace(/\[\s*["']([^"']*)["']\s*\]/g, '.$1')
    .replace(/^\.+/, '')
    .replace(/\.{2,}/g, '.');
}

/** Same key, or one inside the other (`a` and `a.b`, `a` and `a[0]`). */
function related(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`) || a.startsWith(`${b}[`) || b.startsWith(`${a}[`);
}

/** True when `write` stamps the pin at `place`. */
export function writeCoversPin(write: PinWrite, place: PinPlace): boolean {
  if (!fileMatches(write, place.file)) return false;
  if (write.lines && place.line !== undefined && !write.lines.includes(place.line)) return false;
  if (!imageMatches(write, place)) return false;
  const writeKey = normalizeKeyPath(write.keyPath ?? '');
  if (writeKey === '') return true;
  const pinKey = normalizeKeyPath(place.keyPath ?? '');
  if (pinKey === '') return false;
  // a write without a document index (`yq -i '.spec.x = …'`) writes that key in every document
  return related(writeKey, pinKey) || (!writeKey.startsWith('[') && related(writeKey, pinKey.replace(/^\[\d+\]\.?/, '')));
}

/** Index the model's writes by file so each pin looks at only its file's writes. */
export function stampIndex(model: BuildModel): (place: PinPlace) => PinStamp[] {
  const byFile = new Map<string, PinStamp[]>();
  const globbed: PinStamp[] = [];
  const order = new Map<PinStamp, number>();
  for (const producer of model.producers) {
    for (const write of producer.writes) {
      const stamp = { producer, write };
      order.set(stamp, order.size);
      if (write.glob) {
        globbed.push(stamp);
        continue;
      }
      const list = byFile.get(write.file) ?? [];
      list.push(stamp);
      byFile.set(write.file, list);
    }
  }
  if (globbed.length === 0) return (place) => (byFile.get(place.file) ?? []).filter((s) => writeCoversPin(s.write, place));
  // glob writes are checked for every place, merged back into model order
  return (place) => [...(byFile.get(place.file) ?? []), ...globbed].filter((s) => writeCoversPin(s.write, place)).sort((a, b) => order.get(a)! - order.get(b)!);
}

/** Distinct producers among stamps, in model order. */
export function distinctProducers(stamps: readonly PinStamp[]): Producer[] {
  const seen = new Set<string>();
  const out: Producer[] = [];
  for (const s of stamps) {
    if (seen.has(s.producer.id)) continue;
    seen.add(s.producer.id);
    out.push(s.producer);
  }
  return out;
}

/** Which producer(s) stamp the pin at `file`/`keyPath` (leading dot allowed); `line` narrows writes that edit only some lines. */
export function producersFor(model: BuildModel, file: string, keyPath?: string, line?: number): Producer[] {
  return distinctProducers(stampIndex(model)({ file, keyPath, ...(line !== undefined ? { line } : {}) }));
}
