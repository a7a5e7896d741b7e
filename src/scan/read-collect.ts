/**
 * One file, read and collected: the unit of work the scan runs in-process or in
 * a worker thread. A file that is not UTF-8 is read as Latin-1 and scraped as
 * text (its pins flagged `scraped`), and comes back with a `not-utf8` note for
 * `skipped`. Never throws: a collector crash becomes a problem.
 *
 * With a cache, a file's outcome (a file of SCAN_CACHE_MIN_BYTES or more) is kept
 * under the hash of its bytes and everything else the collector's answer depends on
 * (scanCacheKey): the file is still read (to hash it), the parse is what a hit saves.
 */
import { join } from 'node:path';
import { collectFile, isValuesFile, readChartInfo, scrapeText, type ChartInfo, type CollectContext, type CollectResult, type FileKind } from '../collect/index.js';
import { CHART_FILE } from '../config/defaults.js';
import { isFirstParty } from '../model/index.js';
import { readRegularFile } from '../util/safe-read.js';
import { sha256Hex, type Cache } from '../cache/index.js';
import { decodeText, readTextBytes, type TextRead } from './read.js';
import type { SkippedFile } from './types.js';

export interface FileTask {
  file: string;
  abs: string;
  /** The path as bytes when a name on it is not UTF-8 (a Uint8Array after a worker hop). */
  absBytes?: Uint8Array;
  kind: FileKind;
}

/** `note`: the file was read, but only partly (not UTF-8, scraped); list it under `skipped` with scraped: true. */
export type FileOutcome = { skipped: SkippedFile } | { result: CollectResult; note?: SkippedFile };

/**
 * Collect a file read by readTextFile: its collector, or, for a file read as
 * Latin-1, the text scrape (pins flagged `scraped`, `scrapedBecause` says why).
 * May throw what a collector throws.
 */
export function collectRead(kind: FileKind, read: TextRead, ctx: CollectContext): CollectResult {
  if (!read.latin1) return collectFile(kind, read.text, ctx);
  return { ...scrapeText(read.text, ctx, { scraped: true }), scrapedBecause: read.latin1.reason };
}

/** The cache namespace of scan outcomes. */
export const SCAN_CACHE_NS = 'scan';

/**
 * Only files of at least this many bytes are cached: a smaller one parses faster (about 0.2 ms
 * on cozystack) than an entry is written, and not much slower than one is read.
 */
export const SCAN_CACHE_MIN_BYTES = 4096;

/**
 * The cache key of a file's outcome: everything the collector's answer depends
 * on — the bytes (by hash), the repo-relative path (copied into every pin and
 * problem), the file kind, the first-party prefixes (firstParty and the aliases
 * that map to it) and the Chart.yaml beside a values file.
 */
export function scanCacheKey(task: Pick<FileTask, 'file' | 'kind'>, firstParty: readonly string[], chart: ChartInfo | undefined, bytes: Uint8Array): string {
  return JSON.stringify([task.kind, task.file, firstParty, chart ?? null, sha256Hex(bytes)]);
}

export function readAndCollect(task: FileTask, firstParty: readonly string[], cache?: Cache): FileOutcome {
  const bytes = readTextBytes(task.absBytes ? Buffer.from(task.absBytes) : task.abs, task.file);
  if ('skipped' in bytes) return bytes;
  const ctx: CollectContext = { file: task.file, isFirstParty: (repo) => isFirstParty(repo, firstParty) };
  const chart = task.kind === 'yaml' && !task.absBytes ? chartBeside(task) : undefined;
  if (chart) ctx.chart = chart;
  const key = cache?.enabled && bytes.bytes.length >= SCAN_CACHE_MIN_BYTES ? scanCacheKey(task, firstParty, chart, bytes.bytes) : undefined;
  if (key !== undefined) {
    const hit = cache!.getValue<FileOutcome>(SCAN_CACHE_NS, key);
    if (hit) return hit;
  }
  const read = decodeText(bytes.bytes, task.file);
  if ('skipped' in read) return read;
  const note = read.latin1 ? { note: { ...read.latin1, scraped: true } } : {};
  try {
    const result = collectRead(task.kind, read, ctx);
    // the note stands in for scrapedBecause: one `skipped` entry, not two
    const outcome: FileOutcome = read.latin1 ? { result: { pins: result.pins, problems: result.problems }, ...note } : { result };
    if (key !== undefined) cache!.putValue(SCAN_CACHE_NS, key, outcome);
    return outcome;
  } catch (e) {
    const reason = `internal error in the ${read.latin1 ? 'text' : task.kind} collector: ${(e as Error).message}`;
    return { result: { pins: [], problems: [{ file: task.file, code: 'collector-error', reason }] }, ...note };
  }
}

/** The Chart.yaml beside a Helm values file (its appVersion is the chart's default image tag), when there is one. */
function chartBeside(task: FileTask): ChartInfo | undefined {
  if (!isValuesFile(task.file)) return undefined;
  const slash = task.file.lastIndexOf('/');
  const file = slash === -1 ? CHART_FILE : `${task.file.slice(0, slash)}/${CHART_FILE}`;
  const read = readRegularFile(join(task.abs, '..', CHART_FILE), { maxBytes: 1024 * 1024 });
  return 'bytes' in read ? readChartInfo(file, read.bytes.toString('utf8')) : undefined;
}
