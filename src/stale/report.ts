/**
 * `staleReport`: the whole stale pipeline from a repository root and a config
 * (scan → images and build inputs → engine). `check` and the CLI call this.
 */
import type { Config } from '../config/types.js';
import { scanRepo } from '../scan/scan.js';
import type { ScanResult } from '../scan/types.js';
import { computeStale, type StaleOptions } from './engine.js';
import { imagesFromPins, type ImagesResult } from './images.js';
import type { StaleReport } from './types.js';

export interface StaleReportOptions extends Omit<StaleOptions, 'methods' | 'buildCommit'> {
  /** Reuse a scan the caller already made (check does lint and stale on one scan). */
  scan?: ScanResult;
  /** Only these images (short name or repository). */
  only?: string[];
}

export interface StaleReportResult extends StaleReport {
  /** Notes from gathering build knowledge (modules missing, pins without a repository). */
  notes: string[];
}

export async function staleReport(repoRoot: string, config: Config, opts: StaleReportOptions = {}): Promise<StaleReportResult> {
  const scan = opts.scan ?? (await scanRepo(repoRoot, config));
  const known = await imagesFromPins(repoRoot, config, scan.pins);
  const images = selectImages(known, opts.only);
  const methods = opts.registry && !config.provenance.methods.includes('registry') ? (['registry', ...config.provenance.methods] as const) : config.provenance.methods;
  const report = await computeStale(repoRoot, images, { ...opts, methods: [...methods], buildCommit: config.provenance.buildCommit });
  return { ...report, notes: known.notes };
}

export function selectImages(known: ImagesResult, only: string[] | undefined): ImagesResult['images'] {
  if (!only || only.length === 0) return known.images;
  return known.images.filter((i) => only.includes(i.image) || only.includes(i.repository) || only.includes(i.repository.slice(i.repository.lastIndexOf('/') + 1)));
}
