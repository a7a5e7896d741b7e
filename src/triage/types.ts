/** What `pinwatch triage` computes, per log line: where its message comes from, which images compile it, and whether their builds lack a change to it. `--format json` is TriageReport. */
import type { LiteralHistory } from './history.js';
import type { LiteralPattern } from './literals.js';

export type TriageVerdict = 'skew' | 'no-skew' | 'unknown';

/**
 * How one image stands to one matched source line:
 * - `skew`: its build has the message and HEAD removed it, or it lacks a commit to the package that mentions the line;
 * - `current`: its build has the message and lacks no commit to the package;
 * - `lacks`: it lacks commits to the package, none mentioning the line;
 * - `absent`: its build cannot print the message (introduced after it, or removed before it);
 * - `unknown`: no build commit.
 */
export type ImageStanding = 'skew' | 'current' | 'lacks' | 'absent' | 'unknown';

/** A build an image runs: from the pins (stale's provenance) by default; `running` later supplies one from pods. */
export interface ImageBuild {
  commit: string;
  method: string;
}

/** A commit the build lacks, with every path it changes and (when fetched) its text for mentions. */
export interface LackingCommit {
  commit: string;
  date: string;
  subject: string;
  pr?: number;
  paths: string[];
}

/** One image as the engine takes it: plain data. */
export interface TriageImage {
  name: string;
  repository: string;
  digest?: string;
  /** Whether a repo path is one of its build inputs. */
  contains: (path: string) => boolean;
  build?: ImageBuild;
  /** Why there is no build commit (or no inputs). */
  unknownReason?: string;
  lacks: LackingCommit[];
  /** Where the build comes from: the pins (default), or what runs (`--pods`, or builds the caller gives). */
  buildSource?: BuildSource;
  /** With `--pods`: `namespace/pod/container` of every container running this build (one image can run at several builds). */
  runningIn?: string[];
}

/** `pinned`: the pins' build (stale's provenance); `running`: the build a pod list says runs. */
export type BuildSource = 'pinned' | 'running';

export interface IndexSite {
  file: string;
  line: number;
  atHead: boolean;
}

export interface IndexEntry {
  id: number;
  pattern: LiteralPattern;
  sites: IndexSite[];
  history?: LiteralHistory;
}

export interface CommitRef {
  commit: string;
  date?: string;
  subject?: string;
}

export interface TriageLack {
  commit: string;
  subject: string;
  pr?: number;
  date: string;
  mentions: string[];
}

export interface TriageMatchImage {
  name: string;
  repository: string;
  digest?: string;
  build?: ImageBuild;
  standing: ImageStanding;
  reason: string;
  lacks: TriageLack[];
  /** Default `pinned`. */
  buildSource?: BuildSource;
  /** With `--pods`: the containers running this build. */
  runningIn?: string[];
}

export interface TriageMatch {
  file: string;
  /** Line at HEAD, or (when `atHead` is false) in the file the removing commit changed. */
  line: number;
  atHead: boolean;
  literal: string;
  /** Characters of constant text: the rank. */
  specificity: number;
  introduced?: CommitRef;
  /** Set when the literal's only occurrences before HEAD were in the window: "before <commit>". */
  introducedBefore?: string;
  removed?: CommitRef;
  images: TriageMatchImage[];
}

export interface TriageLine {
  lineNumber: number;
  /** Which input (a file name, or `-` for stdin). */
  source: string;
  text: string;
  verdict: TriageVerdict;
  explanation: string;
  /** Tokens of the line (formatted arguments, quoted strings) searched for in lacking commits. */
  tokens: string[];
  matches: TriageMatch[];
  /** Matches left out of `matches` (same rank or lower). */
  moreMatches: number;
}

export interface TriageSummary {
  lines: number;
  matched: number;
  skew: number;
  noSkew: number;
  unknown: number;
  /** Lines that matched nothing and do not look like errors (counted, not listed). */
  unlisted: number;
}

export interface TriageReport {
  head: string;
  /** The oldest commit of the history window (exclusive), or the --since bound. */
  window: { since: string; commits: number };
  index: { files: number; literals: number; removed: number; skippedFiles: number };
  summary: TriageSummary;
  lines: TriageLine[];
  notes: string[];
  gitProcesses: number;
  timings: Record<string, number>;
}
