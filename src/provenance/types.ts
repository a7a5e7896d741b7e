/**
 * Provenance: which commit a pinned image was built from. Each method is a
 * `ProvenanceSource`; the resolver tries them strongest first and keeps every
 * step (answered or why not) for `explain`.
 */
import type { ProvenanceMethod } from '../config/types.js';
import type { Pin } from '../model/index.js';

export type { ProvenanceMethod };

/** What provenance is asked about: one repository at one digest (or tag-only). */
export interface ImageSubject {
  repository: string;
  digest?: string;
  /** Distinct tags the pins carry (`v1.6.0`, `v1.6.0-rc.4`). */
  tags: string[];
  pins: Pin[];
  /** Pins a build recipe or declared producer stamps, with its name (tag-history reads only these). */
  stamped?: { file: string; line: number; by: string }[];
  /** A file every build of the image reads (its Dockerfile): a git tag whose tree lacks it did not build the image (git-tag.ts). */
  anchor?: string;
}

export interface ProvenanceStep {
  method: ProvenanceMethod;
  answered: boolean;
  /** The build commit when answered. */
  commit?: string;
  /** One sentence: how it answered, or why it could not. */
  reason: string;
  /** Method detail: the introducing commit, the git tag, the registry label. */
  evidence?: Record<string, unknown>;
}

export interface Provenance {
  /** Build commit, when some method answered. */
  commit?: string;
  method?: ProvenanceMethod;
  steps: ProvenanceStep[];
  /** Why no method answered (set iff commit is absent). */
  reason?: string;
}

/** What the config says about tags (`provenance.tagCommitPattern`, `provenance.gitTag`, `images.<key>.gitTag`). */
export interface TagRules {
  /** Tried before the default tag-commit schemes; has a `(?<commit>…)` group. */
  tagCommitPattern?: RegExp;
  /** A git tag form with `{tag}` (and `{image}`), tried before the default search. */
  gitTag?: string;
  /** An image's own git tag form, by repository (`images.<key>.gitTag`). */
  gitTagFor?: (repository: string) => string | undefined;
}

/** The seam every method implements (registry, digest-history, git-tag). */
export interface ProvenanceSource {
  method: ProvenanceMethod;
  resolve(image: ImageSubject): Promise<ProvenanceStep>;
  /** git-tag: the git tags the image's pin tags name whose tree does not rule the image out (release.ts). */
  releases?(image: ImageSubject): Release[];
}

/** A git tag an image's pin tag names (tag-trees.ts gitTagCandidates), with its commit. */
export interface Release {
  tag: string;
  gitTag: string;
  commit: string;
}
