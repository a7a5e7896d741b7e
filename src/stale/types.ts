/**
 * What `pinwatch stale` computes: per first-party image (repository at one
 * digest), the build commit, the method that found it, and the commits to its
 * build inputs that the image does not contain. `--format json` is this shape.
 */
import type { ImageInput } from '../images/types.js';
import type { ProvenanceMethod, ProvenanceStep } from '../provenance/types.js';
import type { InputPattern } from '../sources/types.js';

export type StaleStatus = 'stale' | 'current' | 'unknown';

export interface UnshippedCommit {
  commit: string;
  /** Author date, ISO 8601. */
  date: string;
  subject: string;
  /** Pull request number from `(#123)` in the subject or the merge that brought it in. */
  pr?: number;
  /** Conventional-commit type: `fix`, `feat`, …; absent when the subject has none (an `Area: subject` prefix is none). */
  type?: string;
  /** Why it counts as a fix for `--fail-on-stale fix`: `type fix`, `trailer Fixes: #12`, `stale.fixPattern …`; absent when it does not. */
  fix?: string;
  /** Input paths this commit changed (first few), for reports. */
  paths: string[];
}

export interface StaleImage {
  /** Short image name (config key or last path component). */
  image: string;
  repository: string;
  digest?: string;
  tags: string[];
  status: StaleStatus;
  /** Why `unknown`; also set for notes on other statuses. */
  reason?: string;
  builtFrom?: { commit: string; method: ProvenanceMethod; date?: string; subject?: string };
  provenance: ProvenanceStep[];
  unshipped: UnshippedCommit[];
  /** Unshipped commits whose patch already is in the build commit's history (cherry-picks). */
  cherryPicked: { commit: string; equals: string }[];
  oldestUnshipped?: { commit: string; date: string; ageDays: number };
  /**
   * PR mode (`base`): commits of the PR itself (reachable from HEAD, not from the
   * base) that change this image's inputs. They are not unshipped: the PR's own
   * build must rebuild and repin the image.
   */
  rebuild?: UnshippedCommit[];
  pins: { file: string; line: number; keyPath?: string }[];
  inputs: { count: number; patterns: InputPattern[]; ignore: string[]; steps: string[]; unknownReason?: string };
}

export interface StaleReport {
  head: string;
  shallow: boolean;
  images: StaleImage[];
  /** PR mode: the base revision and the commits only the PR has (reachable from HEAD, not from it). */
  base?: { rev: string; commit: string; prCommits: number };
  /** Things that limit the answer for every image (shallow clone, …). */
  warnings: string[];
  /** Git processes this run started (constant in the number of images). */
  gitProcesses: number;
  /** How far back history was read (stale/window.ts): commits, and whether that was all of HEAD's history. */
  history?: { commits: number; whole: boolean };
  /** Milliseconds per engine phase (diagnostics; not stable across runs). */
  timings?: Record<string, number>;
  /**
   * Set when the answer kept by an earlier run was reused (stale/reuse.ts): the commit it judged, and the commits since;
   * `judged`: the images new commits touched, judged again alone (stale/partial.ts; every other image's judgement kept).
   */
  reused?: { from: string; newCommits: number; judged?: string[] };
}

/** One image as the engine takes it (see src/images/types.ts). */
export type StaleImageInput = ImageInput;
