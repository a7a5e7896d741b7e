/**
 * scanRepo: walk the tree, read each ref-bearing file, hand it to its collector,
 * and gather pins, skipped files, problems and exclusion counts. Bad input never
 * stops the scan; the result is sorted and deterministic. Reading and collecting
 * can run on worker threads when asked (pool.ts).
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CollectResult } from '../collect/index.js';
import type { Config } from '../config/types.js';
import { PinwatchError } from '../errors.js';
import type { Pin, Problem } from '../model/index.js';
import { collectInWorkers, workersAvailable } from './pool.js';
import { readAndCollect, type FileOutcome, type FileTask } from './read-collect.js';
import type { ScanResult, SkippedFile } from './types.js';
import { startRecovery } from '../journal/index.js';
import { walkTree } from './walk.js';
import { markSkaffoldPlaceholders } from './placeholders.js';

export interface ScanOptions {
  /** Worker threads for reading and collecting (built package only); default 0: in-process. */
  workers?: number;
}

const PARSE_ERROR_CODE = /parse/;

function checkRoot(root: string): void {
  let isDir = false;
  try {
    isDir = statSync(root).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new PinwatchError('repo-not-found', `repository root ${JSON.stringify(root)} is not a directory`);
}

/** A structured parse that fell back to the text scrape becomes a `skipped` entry with scraped: true. */
function scrapeNote(file: string, result: CollectResult): { skipped?: SkippedFile; problems: Problem[] } {
  if (!result.scrapedBecause) return { problems: result.problems };
  const parseProblem = result.problems.find((p) => PARSE_ERROR_CODE.test(p.code));
  const skipped: SkippedFile = {
    file,
    code: parseProblem?.code ?? 'yaml-parse-error',
    reason: `${result.scrapedBecause.replace(/[:\s]+$/, '')}; refs were scraped from the text instead`,
    scraped: true,
  };
  if (parseProblem?.line !== undefined) skipped.line = parseProblem.line;
  return { skipped, problems: result.problems.filter((p) => p !== parseProblem) };
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function comparePins(a: Pin, b: Pin): number {
  return byText(a.file, b.file) || a.line - b.line || a.column - b.column || byText(a.keyPath ?? '', b.keyPath ?? '') || byText(a.raw, b.raw);
}

function compareLocated(a: { file?: string; line?: number; code: string }, b: { file?: string; line?: number; code: string }): number {
  return byText(a.file ?? '', b.file ?? '') || (a.line ?? 0) - (b.line ?? 0) || byText(a.code, b.code);
}

async function collectAll(tasks: FileTask[], firstParty: readonly string[], options: ScanOptions): Promise<FileOutcome[]> {
  const workers = options.workers ?? 0;
  if (workers > 0 && tasks.length > 0 && workersAvailable()) {
    try {
      return await collectInWorkers(tasks, firstParty, workers);
    } catch {
      // fall through: the same work in-process, so a pool failure never loses a file
    }
  }
  return tasks.map((t) => readAndCollect(t, firstParty));
}

/** Scan the repository at repoRoot with an already loaded config. */
export async function scanRepo(repoRoot: string, config: Config, options: ScanOptions = {}): Promise<ScanResult> {
  const root = resolve(repoRoot);
  checkRoot(root);
  // first finish or undo an interrupted multi-file write (a killed repin), and say so
  // (the search for stale temp files runs in git beside the walk and the collectors)
  const recovery = await startRecovery(root);
  const walk = walkTree(root, config);
  const outcomes = await collectAll(walk.files, config.firstParty, options);
  const pins: Pin[] = [];
  const problems: Problem[] = [...recovery.journal, ...(await recovery.staleTemps())];
  const skipped = [...walk.skipped];
  let filesScanned = 0;
  outcomes.forEach((outcome, i) => {
    if ('skipped' in outcome) {
      skipped.push(outcome.skipped);
      return;
    }
    filesScanned++;
    if (outcome.note) skipped.push(outcome.note);
    const note = scrapeNote(walk.files[i]!.file, outcome.result);
    if (note.skipped) skipped.push(note.skipped);
    pins.push(...outcome.result.pins);
    problems.push(...note.problems);
  });
  markSkaffoldPlaceholders(root, pins);
  return {
    root,
    config,
    filesScanned,
    pins: pins.sort(comparePins),
    skipped: skipped.sort(compareLocated),
    problems: problems.sort(compareLocated),
    excluded: walk.excluded.list(),
  };
}
