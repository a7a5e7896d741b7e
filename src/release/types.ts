/**
 * What the release operations plan, do and report: `promote` (tag the pinned
 * digests), `mirror` (copy them to another prefix by digest) and `compare` (the
 * promotion verifier). The JSON outputs (`--format json`) are these shapes.
 */
import type { Problem } from '../model/index.js';
import type { Leftover, RepinChange } from '../repin/types.js';

/** One pin location a rewrite changes: a repin change without lockstep (release rewrites name every pin themselves). */
export type RefChange = Omit<RepinChange, 'lockstep'>;

export interface RewriteFile {
  file: string;
  before: string;
  after: string;
  diff: string;
}

/** A text line (or a pin) still naming what a rewrite should have removed: the same record repin's sweep reports. */
export type Remaining = Leftover;

export interface RewriteResult {
  changes: RefChange[];
  files: RewriteFile[];
  /** Pins that could not be rewritten, and why (any of them stops every write). */
  problems: Problem[];
  written: boolean;
  /** The postcondition: what still names the old value after the rewrite (or after the dry-run edits). */
  remaining: Remaining[];
}

/** What the registry says about the destination tag before anything is written. */
export type PromotePlan = 'absent' | 'already' | 'conflict' | 'indeterminate' | 'not-promotable';

export type PromoteAction = 'tagged' | 'already' | 'conflict' | 'skipped';

export interface MoveResult {
  tag: string;
  action: 'moved' | 'already' | 'kept' | 'skipped';
  reason: string;
}

export interface PromoteImage {
  repository: string;
  /** Absent when the repository is not pinned by one digest. */
  digest?: string;
  plan: PromotePlan;
  action: PromoteAction;
  reason: string;
  /** The digest TAG names today, when it names another one (conflict). */
  existing?: string;
  /** Where the repository is pinned (file:line). */
  pins: string[];
  moves?: MoveResult[];
}

export interface PromoteResult {
  tag: string;
  dryRun: boolean;
  images: PromoteImage[];
  /** Why nothing was written, when the promotion was refused or could not be planned. */
  refused?: string;
  /** Set when existence could not be decided for some tag: the run ends with exit 2. */
  indeterminate: boolean;
  rewrite?: RewriteResult;
  problems: Problem[];
}

export type MirrorAction = 'copied' | 'present' | 'planned' | 'failed' | 'skipped';

export interface MirrorImage {
  repository: string;
  destination: string;
  digest?: string;
  tags: string[];
  action: MirrorAction;
  reason: string;
  pins: string[];
  stats?: { manifests: number; blobsCopied: number; blobsMounted: number; blobsPresent: number; bytesCopied: number; referrers: number; skippedLayers: string[] };
}

export interface MirrorResult {
  from: string;
  to: string;
  dryRun: boolean;
  images: MirrorImage[];
  /** Why the tree was not rewritten (a copy failed, an image is not mirrorable). */
  refused?: string;
  rewrite?: RewriteResult;
  problems: Problem[];
}

export type CompareStatus = 'same' | 'tags-only' | 'digests' | 'drift' | 'missing' | 'new' | 'failed';

export interface CompareRef {
  keyPath: string;
  from: string;
  to: string;
}

export interface CompareFile {
  file: string;
  status: CompareStatus;
  reason?: string;
  refs: CompareRef[];
  drift: string[];
}

export interface CompareResult {
  /** The other tree, as given. */
  from: string;
  files: CompareFile[];
  summary: Record<CompareStatus, number>;
  /** Why nothing was compared (the other tree is missing). */
  noTree?: string;
}
