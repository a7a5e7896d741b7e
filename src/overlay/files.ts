/**
 * Which ref-bearing files the checkout and the artifact hold: scan's own walk
 * (include / exclude / extraFiles, pruned dirs, vendored charts, chart templates)
 * run on both trees. The artifact's root may stand for a checkout subdirectory
 * (`--at packages`): its globs are rebased onto that subdirectory first.
 */
import { globBase, hasGlobSyntax } from '../util/glob.js';
import type { FileKind } from '../collect/index.js';
import type { Config } from '../config/types.js';
import { walkTree, type ExclusionCount, type SkippedFile } from '../scan/index.js';

export interface TreeFile {
  kind: FileKind;
  abs: string;
  /** Set when the walk found the file but cannot read it safely (a symlink, …). */
  unusable?: string;
}

export interface TreeListing {
  /** Keyed by repo-relative path. */
  files: Map<string, TreeFile>;
  excluded: ExclusionCount[];
  /** What the walk could not attribute to one file (an unreadable dir, an extraFiles entry that matched nothing). */
  notes: SkippedFile[];
}

export type WalkConfig = Pick<Config, 'include' | 'exclude' | 'extraFiles' | 'skipVendoredCharts'>;

/** Codes that name a file the walk saw but will not read. */
const FILE_CODES = new Set(['symlink', 'broken-symlink', 'symlink-outside-repo', 'extra-file-not-a-file']);

/**
 * The ref-bearing files under `base`, keyed by repo-relative path: `prefix/<path
 * below base>`. With a prefix, `config` is the checkout's and its globs are rebased.
 */
export function listTree(base: string, prefix: string, config: WalkConfig): TreeListing {
  const walkConfig = prefix ? rebaseConfig(config, prefix) : config;
  // overlay writes the checkout's files where the walk lists them: a symlink is refused, not read at its target
  const walk = walkTree(base, walkConfig as Config, { readLinks: false });
  const key = (rel: string) => (prefix ? `${prefix}/${rel}` : rel);
  const files = new Map<string, TreeFile>();
  for (const c of walk.files) files.set(key(c.file), { kind: c.kind, abs: c.abs });
  const notes: SkippedFile[] = [];
  for (const s of walk.skipped) {
    if (FILE_CODES.has(s.code)) files.set(key(s.file), { kind: 'text', abs: '', unusable: s.reason });
    else notes.push({ ...s, file: key(s.file) });
  }
  return { files, excluded: walk.excluded.list(), notes };
}

/** Only the files under `at/` (the part of the checkout an artifact rooted at `at` stands for). */
export function underDir(listing: TreeListing, at: string): TreeListing {
  if (!at) return listing;
  const files = new Map([...listing.files].filter(([f]) => f.startsWith(`${at}/`)));
  return { ...listing, files };
}

/**
 * Globs as seen from `prefix/`: `packages/**\/values.yaml` with prefix `packages`
 * becomes `**\/values.yaml`; globs that can match anywhere (`**\/x`) stay; globs
 * rooted elsewhere cannot match below the prefix and are dropped.
 */
export function rebaseGlobs(globs: readonly string[], prefix: string): string[] {
  const out: string[] = [];
  for (const g of globs) {
    const glob = g.replace(/^\.\//, '');
    if (glob.startsWith(`${prefix}/`)) out.push(glob.slice(prefix.length + 1));
    else if (glob.startsWith('**/') || glob === '**') out.push(glob);
    else if (hasGlobSyntax(glob) && globBase(glob) === '') out.push(glob); // `*/x`, `{a,b}/x`: keep (approximate)
  }
  return out;
}

function rebaseConfig(config: WalkConfig, prefix: string): WalkConfig {
  return {
    ...config,
    include: rebaseGlobs(config.include, prefix),
    exclude: rebaseGlobs(config.exclude, prefix),
    extraFiles: rebaseGlobs(config.extraFiles, prefix),
  };
}
