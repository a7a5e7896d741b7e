/**
 * The one model every command shares: a Pin is one place in the tree that stores
 * an image reference. Collectors make pins; lint, stale, overlay and repin read them.
 */
import type { ImageRef } from '../reference/index.js';

/** `source`: a source ref resolved at release (`ko://…`, a Skaffold artifact placeholder), not a pinned image. */
export type Form = 'tag+digest' | 'digest' | 'tag' | 'latest' | 'none' | 'source';

/** Which collector found a pin, i.e. how the ref is stored. */
export type Shape =
  | 'yaml-string' // image: reg/repo:tag@sha256:… under any key
  | 'yaml-arg' // --x-image=reg/repo:tag inside a string (arg lists)
  | 'yaml-split' // {registry?, repository|image|name, tag?, digest?} (digest may sit inside tag)
  | 'yaml-global' // global.registry.address / global.imageRegistry + global.images.<n>
  | 'yaml-oci' // {…Url: oci://repo, …Ref: digest=sha256:…}
  | 'kustomize' // kustomization images: [{name, newName, newTag, digest}]
  | 'tag-file' // images/<name>.tag: one ref in a plain file
  | 'text' // a ref scraped from a line of text (declared extra files, unparsable YAML)
  | 'dockerfile'; // FROM lines

export type SpanField = 'ref' | 'registry' | 'repository' | 'tag' | 'digest';

/** Offsets into the file's decoded text (UTF-16 code units; equal to bytes for ASCII). */
export interface Span {
  field: SpanField;
  start: number;
  end: number;
}

export interface Pin {
  /** Repo-relative path with forward slashes. */
  file: string;
  /** 1-based line and column of the first span. */
  line: number;
  column: number;
  /** YAML key path, dot-joined with [i] for sequence items: `billing.image`, `spec.containers[0].image`. */
  keyPath?: string;
  shape: Shape;
  /** Where each stored field is; overlay masks them, repin rewrites them. */
  spans: Span[];
  /** The stored text as a human reads it (the scalar, or the parts joined). */
  raw: string;
  ref: ImageRef;
  form: Form;
  firstParty: boolean;
  /** Set when the pin came from a textual scrape of a file that did not parse. */
  scraped?: boolean;
  /** YAML document index within a multi-document file (0-based). */
  document?: number;
  /** Key paths of YAML aliases (`*name`) that reuse this pin's anchored value; not separate places. */
  aliases?: string[];
  /**
   * Set when the stored fields do not name the repository (a split map with only
   * `tag`/`digest`; the chart supplies its default repository). `ref.domain`,
   * `ref.path` and `ref.name` are '' then; tag, digest and form are real.
   */
  incomplete?: string;
  /**
   * Set when the tag is not stored at the pin but comes from another file: a Helm
   * chart whose image `tag` is empty uses `appVersion` of the Chart.yaml beside
   * the values file. `ref.tag` is that value (as the chart's templates format it,
   * `template`: src/scan/chart-templates.ts); no span covers it. `subchart`: the
   * map sits under that dependency's key, so the tag holds only where the chart's own
   * templates read it (else it is the subchart's own appVersion: scan drops it).
   */
  tagFrom?: { file: string; line: number; key: string; template?: { file: string; line: number }; subchart?: string };
  /**
   * Set for a source ref (form `source`): not an image but what the release
   * builds one from. `ko`: a `ko://<importpath>` ref, which `ko resolve` replaces
   * (`ref` is empty then); `skaffold`: a manifest image naming a Skaffold
   * artifact (`image: frontend`), which Skaffold replaces with the image it built.
   */
  source?: { builder: 'ko' | 'skaffold'; name: string };
}

/**
 * Something that could not be handled, never dropped silently: a file or part of
 * one scan could not read, a Makefile line the build model could not follow, a
 * pin repin cannot move. The one problem shape every layer reports.
 */
export interface Problem {
  /** Repo-relative file it is about; absent only for a problem about no file (repin's `no-pins`). */
  file?: string;
  line?: number;
  column?: number;
  /** Stable machine code: `yaml-parse-error`, `binary-file`, `invalid-ref`, `build-makefile-missing`, … */
  code: string;
  reason: string;
  /** Set by repin: a blocking problem stops every write; others are notes. */
  blocking?: boolean;
  /**
   * The image repository a build problem is about, when it is one image's
   * (`skaffold-builder-unread`): lint leaves it out once pinwatch.yaml declares
   * that image's inputs, and `explain` shows it with the image.
   */
  repository?: string;
}

export function formOf(ref: Pick<ImageRef, 'tag' | 'digest'>): Form {
  if (ref.tag === 'latest') return 'latest';
  if (ref.tag !== undefined && ref.digest !== undefined) return 'tag+digest';
  if (ref.digest !== undefined) return 'digest';
  if (ref.tag !== undefined) return 'tag';
  return 'none';
}

/** True when `repository` (domain/path) sits under one of the prefixes. */
export function isFirstParty(repository: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => repository === p.replace(/\/$/, '') || repository.startsWith(p.endsWith('/') ? p : `${p}/`));
}
