/**
 * What a git tag's tree pins: for every image whose pin stores a digest and
 * whose tag names a git tag, the image's pin files as they are at that tag,
 * read in ONE `git cat-file --batch` for all images, tags and files. The
 * git-tag method uses it to refuse a tag that never pinned the digest.
 */
import { collectFile } from '../collect/index.js';
import { readBlobs } from '../git/objects.js';
import { fileKind } from '../scan/index.js';
import { pinnedAfterBuild } from './release.js';
import type { ImageSubject, Release, TagRules } from './types.js';

/** `${commit}:${file}` (file relative to the pinwatch root) → text at that commit, or undefined when absent. */
export type TagTrees = Map<string, string | undefined>;

export const tagTreeKey = (commit: string, file: string) => `${commit}:${file}`;

/** The git tag forms searched when nothing is configured, in order: `{tag}`, `v{tag}`, `<image>-{tag}`, `<image>/{tag}`. */
export const DEFAULT_GIT_TAG_FORMS: readonly string[] = ['{tag}', 'v{tag}', '{image}-{tag}', '{image}/{tag}'];

/** Last path component of a repository: `ghcr.io/acme/controller` → `controller`. */
const imageName = (repository: string) => repository.slice(repository.lastIndexOf('/') + 1);

/** The forms tried for one image: its own `images.<key>.gitTag`, then `provenance.gitTag`, then the defaults. */
export function gitTagForms(repository: string, rules: TagRules = {}): string[] {
  const own = rules.gitTagFor?.(repository);
  return [...new Set([...(own ? [own] : []), ...(rules.gitTag ? [rules.gitTag] : []), ...DEFAULT_GIT_TAG_FORMS])];
}

/** A form with `{tag}` and `{image}` filled in. */
export const fillGitTagForm = (form: string, tag: string, repository: string) => form.replaceAll('{tag}', tag).replaceAll('{image}', imageName(repository));

/**
 * The tag every push moves: it names no version, so the repository-wide git tag of that name
 * (gateway has a stray `latest`, older than its images) is not its build; one of the image's
 * own form (`migration-controller-latest`), moved with the image, is.
 */
export const FLOATING_TAG = 'latest';

/** Git tags an image's pin tags name, in the order they are tried (configured forms, then `v1.6.0`, `v` + tag, …). */
export function gitTagCandidates(image: ImageSubject, tags: Map<string, string>, rules: TagRules = {}): Release[] {
  const out: Release[] = [];
  const forms = gitTagForms(image.repository, rules);
  for (const tag of image.tags) {
    for (const gitTag of new Set(forms.map((f) => fillGitTagForm(f, tag, image.repository)))) {
      if (tag === FLOATING_TAG && (gitTag === tag || gitTag === `v${tag}`)) continue;
      const commit = tags.get(gitTag);
      if (commit) out.push({ tag, gitTag, commit });
    }
  }
  return out;
}

export const pinFiles = (image: ImageSubject) => [...new Set(image.pins.map((p) => p.file))].sort();

/**
 * Read the pin files of every digest-pinned image at each git tag it names, and
 * the Dockerfile (anchor) of every image that has one.
 * `prefix` is where the pinwatch root sits in the work tree (`platform/`, or '').
 * No git process when no image needs it.
 */
export async function readTagTrees(repo: string, images: ImageSubject[], tags: Map<string, string>, prefix = '', rules: TagRules = {}): Promise<TagTrees> {
  const keys = new Set<string>();
  for (const image of images) {
    // the tag's tree must at least hold the image's Dockerfile (git-tag.ts: a tag-only pin's tag, a release a digest no recipe stamps was pinned after)
    if (image.anchor !== undefined && (!image.digest || pinnedAfterBuild(image))) for (const c of gitTagCandidates(image, tags, rules)) keys.add(tagTreeKey(c.commit, image.anchor));
    if (!image.digest) continue;
    for (const c of gitTagCandidates(image, tags, rules)) for (const file of pinFiles(image)) keys.add(tagTreeKey(c.commit, file));
  }
  const trees: TagTrees = new Map();
  if (keys.size === 0) return trees;
  const spec = (key: string) => {
    const colon = key.indexOf(':');
    return `${key.slice(0, colon)}:${prefix}${key.slice(colon + 1)}`;
  };
  const blobs = await readBlobs(repo, [...keys].map(spec));
  for (const key of keys) trees.set(key, blobs.get(spec(key)));
  return trees;
}

/**
 * The digests a file's text pins for the image (collected with the file's own
 * collector; `names`: its repository and each name its pins are written under, an
 * `aliases` prefix's among them), and whether it pins `digest` for any repository.
 * A collector failure falls back to a plain text search for the digest.
 */
export function digestsPinnedIn(text: string, file: string, names: ReadonlySet<string>, digest: string, pins: PinnedRef[] | undefined = pinnedRefs(text, file)): { pinsDigest: boolean; forRepository: string[] } {
  if (!pins) return { pinsDigest: text.includes(digest), forRepository: [] };
  const forRepository = [...new Set(pins.flatMap((p) => (names.has(p.name) && p.digest ? [p.digest] : [])))];
  return { pinsDigest: pins.some((p) => p.digest === digest), forRepository };
}

/** A pin's repository and digest, as `digestsPinnedIn` reads them. */
export interface PinnedRef {
  name: string;
  digest?: string;
}

/** The pins a file's text holds (its own collector), or undefined when the collector fails; one parse serves every image that asks. */
export function pinnedRefs(text: string, file: string): PinnedRef[] | undefined {
  try {
    return collectFile(fileKind(file, false), text, { file, isFirstParty: () => true }).pins.map((p) => ({ name: p.ref.name, ...(p.ref.digest ? { digest: p.ref.digest } : {}) }));
  } catch {
    return undefined;
  }
}
