/** What a scan of a tree returns; `pinwatch scan --format json` is this, documented in schemas/. */
import type { FileKind } from '../collect/index.js';
import type { Config } from '../config/types.js';
import type { Pin, Problem } from '../model/index.js';
import type { KustomizeOverlay } from './kustomize.js';
import type { RecipeTree } from './recipe-tree.js';

/** A file the walk found to read, with its kind. */
export interface Candidate {
  /** Repo-relative, forward slashes. */
  file: string;
  abs: string;
  /** Set when a name on the path is not valid UTF-8: the real path as bytes (`abs` is then only for messages). */
  absBytes?: Buffer;
  kind: FileKind;
  /** Set when the walk reached this file through a symlink (the link's repo-relative path): `file` is the target's path. */
  linkedFrom?: string;
}

export interface SkippedFile {
  file: string;
  /** Stable code: `binary-file`, `not-utf8`, `symlink-outside-repo`, `unreadable`, `yaml-parse-error` (scraped), … */
  code: string;
  reason: string;
  line?: number;
  /** True when the file was still read by the text scrape (its pins are in `pins`, flagged `scraped`). */
  scraped?: boolean;
}

/** A count of what a default or the config left out, so an empty result explains itself. */
export interface ExclusionCount {
  reason: string;
  count: number;
  examples: string[];
}

export interface ScanResult {
  root: string;
  config: Config;
  /** Files read (after include/exclude). */
  filesScanned: number;
  pins: Pin[];
  skipped: SkippedFile[];
  /** Problems inside files that were read (an invalid ref on one line, …). */
  problems: Problem[];
  excluded: ExclusionCount[];
  /** Per root kustomize overlay: the ref each container image of its resources deploys (scan/kustomize.ts). */
  kustomize: KustomizeOverlay[];
  /** Set when asked (ScanOptions.recipeTree): the tree listing build-recipe discovery reads, from the scan's walk (not in the JSON). */
  recipeTree?: RecipeTree;
}
