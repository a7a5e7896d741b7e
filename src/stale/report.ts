/**
 * `staleReport`: the whole stale pipeline from a repository root and a config
 * (scan → images and build inputs → engine). `check` and the CLI call this.
 */
import type { Config } from '../config/types.js';
import { PinwatchError } from '../errors.js';
import { scanRepo } from '../scan/scan.js';
import { RECOVERY_CODES } from '../util/journal.js';
import type { ScanResult } from '../scan/types.js';
import type { BuildModel } from '../producers/types.js';
import { computeStale, type StaleOptions } from './engine.js';
import { imagesFromPins, type ImagesResult } from './images.js';
import { methodsFor } from './registry-options.js';
import type { StaleReport } from './types.js';

export interface StaleReportOptions extends Omit<StaleOptions, 'methods' | 'buildCommit'> {
  /** Reuse a scan the caller already made (check does lint and stale on one scan). */
  scan?: ScanResult;
  /** Reuse a build model the caller already read. */
  model?: BuildModel;
  /** Only these images (short name or repository). */
  only?: string[];
}

export interface StaleReportResult extends StaleReport {
  /** Notes from gathering build knowledge (modules missing, pins without a repository). */
  notes: string[];
}

export async function staleReport(repoRoot: string, config: Config, opts: StaleReportOptions = {}): Promise<StaleReportResult> {
  const scan = opts.scan ?? (await scanRepo(repoRoot, config));
  const known = await imagesFromPins(repoRoot, config, scan.pins, opts.model);
  const images = selectImages(known, opts.only);
  const report = await computeStale(repoRoot, images, { ...opts, methods: methodsFor(config, opts.registry), buildCommit: config.provenance.buildCommit });
  const notes = config.firstParty.length === 0 ? ['no first-party prefixes are configured (firstParty in pinwatch.yaml or --first-party), so there is nothing to judge'] : [];
  // what the scan's recovery of an interrupted write did (util/journal.ts), said here too
  const recovered = scan.problems.filter((p) => RECOVERY_CODES.has(p.code)).map((p) => `${p.file}: ${p.code}: ${p.reason}`);
  return { ...report, notes: [...recovered, ...notes, ...known.notes] };
}

const namesOf = (i: ImagesResult['images'][number]) => [i.image, i.repository, i.repository.slice(i.repository.lastIndexOf('/') + 1)];

/** The images asked for by name; a name that matches no first-party image is a usage error, not an empty report. */
export function selectImages(known: ImagesResult, only: string[] | undefined): ImagesResult['images'] {
  if (!only || only.length === 0) return known.images;
  const unmatched = only.filter((q) => !known.images.some((i) => namesOf(i).includes(q)));
  if (unmatched.length > 0) {
    const names = [...new Set(known.images.map((i) => i.image))].sort();
    throw new PinwatchError(
      'unknown-image',
      `no first-party image ${unmatched.map((q) => JSON.stringify(q)).join(', ')} is pinned in this tree; expected one of: ${names.join(', ') || '(none: is firstParty set in pinwatch.yaml?)'}`,
    );
  }
  return known.images.filter((i) => namesOf(i).some((n) => only.includes(n)));
}
