/**
 * What an IMAGE argument names, one rule for every command that takes one
 * (stale, explain, repin): an exact repository (a full reference names its
 * repository; tag and digest are ignored; a repository under an `aliases`
 * prefix names its canonical image), else the repository's trailing path
 * (`openshift-logging/loki-operator`, as the stale table disambiguates two
 * images of one short name), else a pinwatch.yaml `images:` key,
 * else the image's short name (config key or last path component of the
 * repository). A short name shared by several images is `image-ambiguous`,
 * never a silent pick; no match is `image-unknown`, with the closest name.
 */
import { canonicalRepository } from '../config/aliases.js';
import { closestKey } from '../config/suggest.js';
import { PinwatchError } from '../errors.js';
import { tryParseReference } from '../reference/index.js';
import { shortName } from './images.js';
import { listSome } from '../util/list.js';

/** What resolution needs to know of an image. */
export interface NamedImage {
  /** Short name: the config key, or the last path component of the repository. */
  image: string;
  repository: string;
  /** Set when pinwatch.yaml declares the image (its key is `image`). */
  declared?: { key: string };
}

/** The `noneHint` of stale and explain, which resolve over first-party images. */
export const NO_FIRST_PARTY_HINT = 'no first-party image is pinned: is firstParty set in pinwatch.yaml?';

export interface ResolveImageOptions {
  /** Said instead of the list of known images when there are none. */
  noneHint?: string;
  /** pinwatch.yaml `aliases`: a repository under an alias prefix names the canonical image (`ci.acme.test/app` → `ghcr.io/acme/app`). */
  aliases?: Readonly<Record<string, string>>;
}

/** The repository a query spells out, when it is more than a bare name (`ghcr.io/acme/app`, `app:v1`, `acme/app`). */
function spelledRepository(query: string): string | undefined {
  if (!/[/:@]/.test(query)) return undefined;
  return tryParseReference(query)?.name;
}

/** Every image `query` names under the rule, best tier only (0, 1 or several). */
export function imagesNamed<K extends NamedImage>(query: string, images: readonly K[], aliases: Readonly<Record<string, string>> = {}): K[] {
  const spelled = spelledRepository(query);
  const canonical = (r: string) => canonicalRepository(r, aliases);
  const repository = spelled !== undefined ? canonical(spelled) : undefined;
  const exact = images.filter((k) => k.repository === query || k.repository === canonical(query) || (repository !== undefined && k.repository === repository));
  if (exact.length > 0) return exact;
  // the trailing path the stale table shows when two images share a short name (`openshift-logging/loki-operator`)
  if (query.includes('/') && !/[:@]/.test(query)) {
    const trailing = images.filter((k) => k.repository.endsWith(`/${query}`));
    if (trailing.length > 0) return trailing;
  }
  const declared = images.filter((k) => k.declared !== undefined && k.image === query);
  if (declared.length > 0) return declared;
  return images.filter((k) => k.image === query || shortName(k.repository) === query);
}

/** The one image `query` names; throws `image-ambiguous` or `image-unknown` (exit 2). */
export function resolveImage<K extends NamedImage>(query: string, images: readonly K[], opts: ResolveImageOptions = {}): K {
  const matches = imagesNamed(query, images, opts.aliases);
  const repositories = [...new Set(matches.map((k) => k.repository))].sort();
  if (repositories.length === 1) return matches[0]!;
  if (repositories.length > 1) {
    throw new PinwatchError(
      'image-ambiguous',
      `image "${query}" matches ${repositories.length} images: ${repositories.join(', ')}; give the full repository (like ${repositories[0]})`,
    );
  }
  const names = [...new Set(images.map((k) => k.image))].sort();
  const guess = closestKey(query, [...new Set([...names, ...images.map((k) => k.repository)])]);
  const hint = guess !== undefined ? `; did you mean "${guess}"?` : '';
  // Names that contain the query first (`controller` → every *-controller), then the rest; at most 8 shown.
  const q = query.toLowerCase();
  const ordered = [...names.filter((n) => n.toLowerCase().includes(q)), ...names.filter((n) => !n.toLowerCase().includes(q))];
  const known = names.length > 0 ? `expected one of: ${listSome(ordered)}` : (opts.noneHint ?? 'no image is pinned');
  throw new PinwatchError('image-unknown', `no image "${query}" is pinned in this tree${hint} (${known})`);
}
