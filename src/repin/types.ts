/** What `repin` plans, writes and reports. `pinwatch repin --format json` prints RepinResult. */
import type { Problem, Shape } from '../model/index.js';

export interface RepinTarget {
  /** Repository (`domain/path`) being repinned. */
  repository: string;
  tag?: string;
  digest: string;
  /** How the digest was obtained: given in --to, or resolved through the registry. */
  resolvedBy: 'given' | 'registry';
}

export interface RepinChange {
  file: string;
  line: number;
  keyPath?: string;
  shape: Shape;
  from: string;
  to: string;
  /** Set when the pin is of another repository and is rewritten because a producer stamps it in lockstep. */
  lockstep?: { producer: string; refId: string };
}

export interface Leftover {
  file: string;
  line: number;
  text: string;
  /** `pin` (a rescanned pin still names an old digest) or `text` (the digest appears in a file the scan does not read as a pin). */
  kind: 'pin' | 'text';
}

export interface ForwardCheck {
  decided: boolean;
  ok: boolean;
  reason: string;
  currentCommit?: string;
  targetCommit?: string;
}

export interface FileEdit {
  file: string;
  before: string;
  after: string;
  /** Unified diff (`diff` package). */
  diff: string;
}

export interface RepinResult {
  repository: string;
  target: RepinTarget;
  /** Digests the repository was pinned at before. */
  oldDigests: string[];
  changes: RepinChange[];
  files: FileEdit[];
  /** `blocking` set on each: a blocking problem stops every write. */
  problems: Problem[];
  leftovers: Leftover[];
  forward?: ForwardCheck;
  dryRun: boolean;
  written: boolean;
}
