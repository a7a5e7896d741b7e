/**
 * The overlay model: what `pinwatch overlay` decided for each ref-bearing file
 * and why. The engine fills it; the report formatters (src/report/overlay-*.ts)
 * only read it.
 */
import type { FileKind } from '../collect/index.js';
import type { ExclusionCount, SkippedFile } from '../scan/index.js';

export type OverlayStatus =
  | 'overlaid' // every difference is a ref: the artifact's bytes were written (or would be, with --dry-run)
  | 'same' // byte-identical
  | 'skipped' // in a --built / --touched / --owned set
  | 'drift' // something other than a ref differs: the committed file is kept
  | 'failed' // could not be read or compared
  | 'missing-in-artifact' // in the checkout only
  | 'new-in-artifact'; // in the artifact only

/** How the two files were compared. */
export type CompareMethod = 'structural' | 'line-fallback';

/** Which skip set a file fell in. */
export type SkipSet = 'built' | 'touched' | 'owned';

/** Why one differing line is not a ref difference. */
export type LineDiffKind =
  | 'config' // no image reference on the line
  | 'comment' // only a comment differs (or the line is a comment)
  | 'around-ref' // the line carries a ref, but text outside the ref differs
  | 'unrecognised'; // line-fallback: the line carries no ref the collector recognises

export interface DriftLine {
  /** 1-based line in the committed file; absent when the line exists only in the artifact. */
  line?: number;
  /** 1-based line in the artifact file; absent when the line exists only in the checkout. */
  artifactLine?: number;
  /** For a line only in the artifact: the checkout line it would go before (where annotations point). */
  nearLine?: number;
  /** The committed line as it is in the file (absent: only in the artifact). */
  committed?: string;
  /** The artifact line as it is in the file (absent: only in the checkout). */
  artifact?: string;
  kind: LineDiffKind;
  /** One sentence: why this line is not a ref difference. */
  reason: string;
}

export interface OverlayFileResult {
  /** Repo-relative path with forward slashes. */
  file: string;
  status: OverlayStatus;
  kind?: FileKind;
  method?: CompareMethod;
  /** A sentence: why this status (skip set, failure, drift cause, fallback cause). */
  reason?: string;
  skip?: { set: SkipSet; dir: string };
  /** Pins that do not correspond between the two files (count, order, key, stored fields). */
  pinDrift?: string[];
  /** Every non-ref line that differs (drift), or the comment lines ignored (overlaid with --ignore-comments). */
  lines?: DriftLine[];
  /** Number of pins masked in the committed file (structural and line-fallback). */
  pins?: number;
  /** Unified diff of what overlaying changes (overlaid files under --dry-run). */
  patch?: string;
}

export interface OverlaySummary {
  overlaid: number;
  same: number;
  skipped: number;
  drift: number;
  failed: number;
  missingInArtifact: number;
  newInArtifact: number;
}

export interface OverlayReport {
  /** Absolute checkout root. */
  root: string;
  /** Absolute artifact root (as given). */
  from: string;
  /** Checkout subdirectory the artifact root stands for ('' = the repo root). */
  at: string;
  dryRun: boolean;
  ignoreComments: boolean;
  /** Set when --from does not exist: nothing was compared. */
  noArtifact?: string;
  summary: OverlaySummary;
  files: OverlayFileResult[];
  /** What the file selection left out in the checkout (vendored charts, …), so counts explain themselves. */
  excluded: ExclusionCount[];
  /** What the walk could not attribute to one file: an unreadable directory, an extraFiles entry that matched nothing. */
  notes: SkippedFile[];
}
