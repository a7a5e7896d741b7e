/**
 * The collector contract: one function per storage shape family, text in, pins
 * and problems out. Collectors are pure (no fs): scan reads files, collectors read text.
 */
import type { Pin, Problem } from '../model/index.js';
import type { ChartInfo } from './yaml/chart.js';

export interface CollectContext {
  /** Repo-relative path with forward slashes; copied into every pin and problem. */
  file: string;
  /** Whether a repository (`domain/path`) is first-party. */
  isFirstParty(repository: string): boolean;
  /** For a Helm values file: the Chart.yaml beside it (its appVersion is the default image tag). */
  chart?: ChartInfo;
}

/** What a collector read that is neither a pin nor a problem: why, and `file:line what` (with the line itself where a later pass needs it). */
export interface LeftOut {
  reason: string;
  where: string;
  line?: number;
}

export interface CollectResult {
  pins: Pin[];
  /** Parse failures (with the scrape used instead), refs that did not parse, … */
  problems: Problem[];
  /** Set when the structured parse failed and the pins come from a textual scrape. */
  scrapedBecause?: string;
  /**
   * Values the collector read and decided are not pins, and not defects either
   * (`newTag: CONTAINER_IMAGES_TAG`, a template): scan counts them under
   * `excluded` by reason, with `where` (file:line) as the example.
   */
  leftOut?: LeftOut[];
}

/** How scan asks a file to be read. */
export type FileKind = 'yaml' | 'tag' | 'text' | 'dockerfile';

export type Collector = (text: string, ctx: CollectContext) => CollectResult;
