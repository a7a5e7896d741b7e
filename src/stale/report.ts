/**
 * `staleReport`: the whole stale pipeline from a repository root and a config
 * (scan → images and build inputs → engine). `check` and the CLI call this.
 */
import type { Config } from '../config/types.js';
import { scanRepo } from '../scan/scan.js';
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
  return { ...report, notes: [...notes, ...known.notes] };
}

export function selectImages(known: ImagesResult, only: string[] | undefined): ImagesResult['images'] {
  if (!only || only.length === 0) return known.images;
  return known.images.filter((i) => only.includes(i.image) || only.includes(i.repository) || only.includes(i.repository.slice(i.repository.lastIndexOf('/') + 1)));
}
