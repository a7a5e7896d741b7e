/**
 * scanRepo: walk the tree, read each ref-bearing file, hand it to its collector,
 * and gather pins, skipped files, problems and exclusion counts. Bad input never
 * stops the scan; the result is sorted and deterministic. Reading and collecting
 * can run on worker threads when asked (pool.ts).
 */
import { firstPartyPrefixes } from '../config/aliases.js';
import { realpathSync, statSync } from '../util/tracked-fs.js';
import { join, resolve } from 'node:path';
import type { CollectResult } from '../collect/index.js';
import type { Config } from '../config/types.js';
import { PinwatchError } from '../errors.js';
import { isFirstParty, type Pin, type Problem } from '../model/index.js';
import { interpolateComposePins, isComposeFile } from './compose.js';
import { collectInWorkers, workersAvailable } from './pool.js';
import { readAndCollect, type FileOutcome, type FileTask } from './read-collect.js';
import type { ScanResult, SkippedFile } from './types.js';
import { startRecovery, type Recovery } from '../journal/index.js';
import { walkTree, type WalkOptions, type WalkResult } from './walk.js';
import { EXCLUDED_REASONS } from './exclusions.js';
import { isKustomizationFile, loadKustomizeGraph, resolveOverlays, type KustomizeGraph } from './kustomize.js';
import { compileGlob } from '../util/glob.js';
import { PREFIX_REASON, repositoryPrefixes } from './prefixes.js';
import { applyChartTemplateTags } from './chart-templates.js';
import { markSkaffoldPlaceholders } from './placeholders.js';
import { cacheFor, type Cache } from '../cache/index.js';

export interface ScanOptions {
  /** Worker threads for reading and collecting (built package only); default 0: in-process. */
  workers?: number;
  /** The cache of per-file outcomes (in-process only); default: the process's, `cacheFor(root)`, disabled unless configured. */
  cache?: Cache;
  /** Also record, in the same tree walk, the listing build-recipe discovery reads (ScanResult.recipeTree). */
  recipeTree?: boolean;
  /** The recovery of interrupted writes, when the caller already started it (startRecovery); default: started here. */
  recovery?: Pick<Recovery, 'journal' | 'staleTemps'>;
  /**
   * The tree-state snapshot's hooks (src/snapshot/): the walk, and each file's
   * read and collect (in-process), each given the fresh derivation to run or
   * to answer instead with what it kept while that still holds.
   */
  parts?: ScanParts;
}

export interface ScanParts {
  /** `fresh` walks now, with the options given (a walk that keeps its tree, and a kept one to replay: walk-memo.ts). */
  walk(fresh: (extra?: Pick<WalkOptions, 'keep' | 'kept'>) => WalkResult): WalkResult;
  collect(task: FileTask, fresh: () => FileOutcome): FileOutcome;
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

async function collectAll(root: string, tasks: FileTask[], firstParty: readonly string[], options: ScanOptions): Promise<FileOutcome[]> {
  const workers = options.workers ?? 0;
  if (workers > 0 && tasks.length > 0 && workersAvailable()) {
    try {
      return await collectInWorkers(tasks, firstParty, workers);
    } catch {
      // fall through: the same work in-process, so a pool failure never loses a file
    }
  }
  const cache = options.cache ?? cacheFor(root);
  const parts = options.parts;
  if (parts) return tasks.map((t) => parts.collect(t, () => readAndCollect(t, firstParty, cache)));
  return tasks.map((t) => readAndCollect(t, firstParty, cache));
}

/** Scan the repository at repoRoot with an already loaded config. */
export async function scanRepo(repoRoot: string, config: Config, options: ScanOptions = {}): Promise<ScanResult> {
  const root = resolve(repoRoot);
  checkRoot(root);
  // first finish or undo an interrupted multi-file write (a killed repin), and say so
  // (the search for stale temp files runs in git beside the walk and the collectors)
  const recovery = options.recovery ?? (await startRecovery(root));
  const walkNow = (extra: Pick<WalkOptions, 'keep' | 'kept'> = {}) => walkTree(root, config, { ...(options.recipeTree ? { recipeTree: true } : {}), ...extra });
  const walk = options.parts ? options.parts.walk(walkNow) : walkNow();
  const graph = loadKustomizeGraph(root, realpathSync(root), walk.files.filter((f) => f.kind === 'yaml' && isKustomizationFile(f.file)).map((f) => f.file));
  const tasks: FileTask[] = [...walk.files, ...kustomizeTasks(root, config, walk, graph)];
  const outcomes = await collectAll(root, tasks, firstPartyPrefixes(config), options);
  let pins: Pin[] = [];
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
    const task = tasks[i]!;
    // An included compose file: its `image:` values with variables, interpolated from the project .env.
    const result = task.kind === 'yaml' && !outcome.note && !outcome.result.scrapedBecause && isComposeFile(task.file) ? interpolateComposePins(task.abs, task.file, outcome.result, (r) => isFirstParty(r, firstPartyPrefixes(config))) : outcome.result;
    const note = scrapeNote(task.file, result);
    if (note.skipped) skipped.push(note.skipped);
    pins.push(...result.pins);
    problems.push(...note.problems);
    for (const left of result.leftOut ?? []) walk.excluded.add(left.reason, left.where);
  });
  // a manifest image naming a Skaffold artifact is a source ref, before kustomize placeholders are judged
  markSkaffoldPlaceholders(root, pins);
  // a tag that is the chart's appVersion, as the chart's templates format it (`printf "v%s" .Chart.AppVersion`)
  applyChartTemplateTags(root, pins);
  // a missing resource may be generated before kustomize runs (argo-cd plugins' `all.yaml`): counted, not a problem
  for (const n of graph.notFollowed) walk.excluded.add(EXCLUDED_REASONS.kustomizeNotFollowed, `${n.file}:${n.line ?? 0} ${n.entry} (${n.reason})`);
  const overlays = resolveOverlays(graph, pins);
  const prefixes = repositoryPrefixes(pins);
  if (overlays.placeholders.length > 0 || prefixes.length > 0) {
    const left = new Set([...overlays.placeholders, ...prefixes]);
    for (const p of overlays.placeholders) walk.excluded.add(EXCLUDED_REASONS.kustomizePlaceholder, `${p.file}:${p.line} ${p.raw}`);
    for (const p of prefixes) walk.excluded.add(PREFIX_REASON, `${p.file}:${p.line} ${p.keyPath ?? ''}.repository ${p.ref.name}`);
    pins = pins.filter((p) => !left.has(p));
  }
  return {
    root,
    config,
    filesScanned,
    pins: pins.sort(comparePins),
    skipped: skipped.sort(compareLocated),
    problems: problems.sort(compareLocated),
    excluded: walk.excluded.list(),
    kustomize: overlays.overlays,
    ...(walk.recipeTree ? { recipeTree: walk.recipeTree } : {}),
  };
}

/**
 * Resource manifests (and kustomizations) a scanned kustomization names that no
 * include glob read: kustomize deploys them, so they are read too (user excludes
 * still apply), and no longer counted as left out.
 */
function kustomizeTasks(root: string, config: Config, walk: WalkResult, graph: KustomizeGraph): FileTask[] {
  const scanned = new Set(walk.files.map((f) => f.file));
  const excludes = config.exclude.map((x) => compileGlob(x.endsWith('/') ? `${x}**` : x));
  const wanted = [...graph.resourceFiles, ...graph.kustomizations.keys()].filter((f) => !scanned.has(f) && (/\.ya?ml$/.test(f) || isKustomizationFile(f)));
  const tasks: FileTask[] = [];
  for (const file of [...new Set(wanted)].sort()) {
    if (excludes.some((x) => x(file))) continue;
    walk.excluded.remove(EXCLUDED_REASONS.notIncluded, file);
    tasks.push({ file, abs: join(root, ...file.split('/')), kind: 'yaml' });
  }
  return tasks;
}
