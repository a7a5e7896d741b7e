/**
 * Git-tag provenance, the weakest method: a pin tag that names a git tag
 * (`v1.6.0`, or `1.6.0` for tag `v1.6.0`) is taken as built from that tag's
 * commit. A promotion retag makes the git tag contain commits the image lacks.
 * The floating tag `latest` names no bare git tag `latest` (tag-trees.ts FLOATING_TAG).
 * When the pin stores a digest, the tag is accepted only if its tree pins that
 * digest in one of the image's pin files (read beforehand by `readTagTrees`):
 * a tag whose tree pins another digest did not build this image. A tag-only
 * pin's tag must hold the image's Dockerfile (loki's 2019 git tag v0.1.0 has no
 * operator/, so it did not build `loki-operator:0.1.0`).
 */
import { digestsPinnedIn, FLOATING_TAG, gitTagCandidates, gitTagForms, pinFiles, pinnedRefs, tagTreeKey, type PinnedRef, type TagTrees } from './tag-trees.js';
import type { ImageSubject, ProvenanceSource, ProvenanceStep, TagRules } from './types.js';
import { listSome } from '../util/list.js';

const method = 'git-tag' as const;
const shortDigest = (d: string) => `${d.slice(0, 19)}…`;

export function gitTagSource(tags: Map<string, string>, trees: TagTrees, rules: TagRules = {}): ProvenanceSource {
  return { method, resolve: async (image) => resolveFromGitTag(image, tags, trees, rules), releases: (image) => gitTagCandidates(image, tags, rules).filter((c) => !lacksAnchor(image, c.commit, trees)) };
}

/** The tag's tree was read for the image's Dockerfile and has none: the tag did not build the image. */
function lacksAnchor(image: ImageSubject, commit: string, trees: TagTrees): boolean {
  const anchor = image.anchor;
  return anchor !== undefined && trees.has(tagTreeKey(commit, anchor)) && trees.get(tagTreeKey(commit, anchor)) === undefined;
}

export function resolveFromGitTag(image: ImageSubject, tags: Map<string, string>, trees: TagTrees, rules: TagRules = {}): ProvenanceStep {
  if (image.tags.length === 0) return { method, answered: false, reason: 'no pin of this image carries a tag' };
  const candidates = gitTagCandidates(image, tags, rules);
  if (candidates.length === 0 && image.tags.every((t) => t === FLOATING_TAG) && (tags.has(FLOATING_TAG) || tags.has(`v${FLOATING_TAG}`))) {
    return { method, answered: false, reason: `image tag ${FLOATING_TAG} names no version: a push moves it, so a git tag ${FLOATING_TAG} is not taken as its build (one of the image's own form, e.g. "{image}-${FLOATING_TAG}", would be)` };
  }
  if (candidates.length === 0) {
    const forms = gitTagForms(image.repository, rules).join(', ');
    return { method, answered: false, reason: `image tag(s) ${listSome(image.tags)} name no git tag (searched ${forms}; set provenance.gitTag, e.g. "controller-{tag}", for another form)` };
  }
  const refusals: string[] = [];
  for (const { tag, gitTag, commit } of candidates) {
    const named = `image tag ${tag} names git tag ${gitTag}`;
    if (!image.digest) {
      if (lacksAnchor(image, commit, trees)) {
        refusals.push(`git tag ${gitTag} has no ${image.anchor}, which every build of this image reads: the tag did not build it`);
        continue;
      }
      return { method, answered: true, commit, reason: `${named}; weakest method: a promotion retag makes the git tag contain commits the image may not, and no digest was pinned to check the tag against`, evidence: { gitTag } };
    }
    const refusal = tagDoesNotPin(image, image.digest, gitTag, commit, trees);
    if (!refusal) {
      return { method, answered: true, commit, reason: `${named}, whose tree pins ${shortDigest(image.digest)}; weakest method: a promotion retag makes the git tag contain commits the image may not`, evidence: { gitTag } };
    }
    refusals.push(refusal);
  }
  return { method, answered: false, reason: refusals.join('; '), evidence: { gitTags: candidates.map((c) => c.gitTag) } };
}

/** Per read of the tag trees: each file's pins at each tag, parsed once for all the images that share the file. */
const parsedTrees = new WeakMap<TagTrees, Map<string, PinnedRef[] | undefined>>();

function pinsAt(trees: TagTrees, key: string, text: string, file: string): PinnedRef[] | undefined {
  let parsed = parsedTrees.get(trees);
  if (!parsed) parsedTrees.set(trees, (parsed = new Map()));
  if (!parsed.has(key)) parsed.set(key, pinnedRefs(text, file));
  return parsed.get(key);
}

/** Why git tag `gitTag` did not build the image at `digest`, or undefined when its tree pins that digest. */
function tagDoesNotPin(image: ImageSubject, digest: string, gitTag: string, commit: string, trees: TagTrees): string | undefined {
  if (image.pins.length === 0) return `git tag ${gitTag}: no pin file to check the tag against ${shortDigest(digest)}`;
  const found: string[] = [];
  const absent: string[] = [];
  const names = new Set([image.repository, ...image.pins.map((p) => p.ref.name)]);
  for (const file of pinFiles(image)) {
    const key = tagTreeKey(commit, file);
    if (!trees.has(key)) return `git tag ${gitTag}: ${file} was not read at the tag, so it cannot show the tag built ${shortDigest(digest)}`;
    const text = trees.get(key);
    if (text === undefined) {
      absent.push(file);
      continue;
    }
    const { pinsDigest, forRepository } = digestsPinnedIn(text, file, names, digest, pinsAt(trees, key, text, file));
    if (pinsDigest) return undefined;
    found.push(forRepository.length > 0 ? `pins ${listSome(forRepository.map(shortDigest))} in ${file}` : `pins no digest of ${image.repository} in ${file}`);
  }
  const parts = [...found, ...(absent.length > 0 ? [`has no ${listSome(absent)}`] : [])];
  return `git tag ${gitTag} ${parts.join('; ')}, not ${shortDigest(digest)}: the tag did not build this image`;
}
