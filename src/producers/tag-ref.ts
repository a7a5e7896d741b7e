/**
 * A tag a recipe spells, read as a ref: the recipes (assemble.ts) and the names given after a build
 * (retag.ts) read tags alike. Light on purpose: the model's join (combine.ts) runs on a reused answer's path.
 */
import { tryParseReference } from '../reference/index.js';

/** A make marker (`⟨shell git describe⟩`: make/markers.ts), told by its delimiters without loading the make reader. */
const MARKER = /⟨[^⟩]*⟩/;

/** A shell command substitution left in a tag (`:latest-$(echo linux/amd64 | sed …)`): computed when the job runs, like a marker. */
const COMMAND_SUBSTITUTION = /\$\((?:[^()]|\([^()]*\))*\)|`[^`]*`/g;
const hasSubstitution = (tag: string): boolean => tag.includes('$(') || tag.includes('`');

/** A tag a recipe spells as a ref: a part only the run knows (a marker, `$(…)`) after the name is dropped; in the name, no ref. */
export function refOfTag(tag: string): ReturnType<typeof tryParseReference> {
  return tryParseReference(MARKER.test(tag) || hasSubstitution(tag) ? nameOf(tag) : tag);
}

/** A tag reference without its tag and digest (`reg/x:⟨shell …⟩@…` → `reg/x`), when only those are unknown. */
function nameOf(tag: string): string {
  const noDigest = tag.replace(new RegExp(MARKER.source, 'g'), 'UNKNOWN').replace(COMMAND_SUBSTITUTION, 'UNKNOWN').split('@')[0]!;
  const colon = noDigest.lastIndexOf(':');
  const name = colon > noDigest.lastIndexOf('/') ? noDigest.slice(0, colon) : noDigest;
  return name.includes('UNKNOWN') ? '' : name;
}
