/**
 * `lintRepo`: lint a repository on disk. Scans it, loads the build model, reads
 * the texts inline directives live in, resolves and reads the baseline, and runs
 * the engine. `writeBaselineFile` records the current findings.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config/types.js';
import type { Finding } from '../model/index.js';
import { loadBuildModel, type BuildModel } from '../producers/index.js';
import { readTextFile, scanRepo, type ScanResult } from '../scan/index.js';
import { PinwatchError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { displayPath } from '../util/display-path.js';
import { containedPath, resolveInsideRepo } from '../util/repo-path.js';
import { baselineOf, DEFAULT_BASELINE_FILE, readBaseline, serializeBaseline, type Baseline } from './baseline.js';
import { lint, type LintResult } from './engine.js';

export interface LintRepoOptions {
  /** A baseline path (repo-relative or absolute), or false to ignore any. Default: config `baseline:`, else `.pinwatch-baseline.json` if present. */
  baseline?: string | false;
  /** Rule ids besides lint's that directives may name. */
  extraRuleIds?: readonly string[];
  /** Other commands' findings to suppress, baseline and sort together with lint's (see `LintInput.extraFindings`). */
  extraFindings?: readonly Finding[];
}

export interface LintRepoResult extends LintResult {
  scan: ScanResult;
  model: BuildModel;
  /** Repo-relative (or absolute, outside the repo) path of the baseline used. */
  baselineFile?: string;
}

/**
 * Resolve which baseline applies: explicit and configured ones must exist; the
 * default may be absent. The repository's own (configured or default) must
 * resolve inside it; a --baseline path is the operator's and is read through symlinks.
 */
export function resolveBaseline(root: string, config: Config, option: string | false | undefined): { file: string; baseline: Baseline } | undefined {
  if (option === false) return undefined;
  const named = option ?? config.baseline;
  const given = resolve(root, named ?? DEFAULT_BASELINE_FILE);
  const file = displayPath(root, given);
  const abs = option !== undefined ? realOrSelf(given) : insideOrThrow(root, named ?? DEFAULT_BASELINE_FILE, file);
  const baseline = readBaseline(abs, file, named !== undefined);
  return baseline ? { file, baseline } : undefined;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function insideOrThrow(root: string, rel: string, file: string): string {
  try {
    return resolveInsideRepo(root, rel);
  } catch (e) {
    if (e instanceof PinwatchError) throw new PinwatchError(e.code, `baseline ${e.message}`, { file }, { cause: e });
    throw e;
  }
}

/** Texts of repo files, read once and decoded as scan decodes them (readTextFile), undefined when unreadable. */
export function fileTextReader(root: string): (file: string) => string | undefined {
  const cache = new Map<string, string | undefined>();
  return (file) => {
    if (!cache.has(file)) {
      const read = readTextFile(resolve(root, file), file);
      cache.set(file, 'text' in read ? read.text : undefined);
    }
    return cache.get(file);
  };
}

export async function lintRepo(repoRoot: string, config: Config, options: LintRepoOptions = {}): Promise<LintRepoResult> {
  // one tree walk for both: the scan's records the listing the build model reads
  const scan = await scanRepo(repoRoot, config, { recipeTree: true });
  const model = await loadBuildModel(repoRoot, config, scan.recipeTree ? { tree: scan.recipeTree } : {});
  return lintScanned(repoRoot, config, scan, model, options);
}

/** Lint an existing scan and build model (for `check`, which has both already). */
export function lintScanned(repoRoot: string, config: Config, scan: ScanResult, model: BuildModel, options: LintRepoOptions = {}): LintRepoResult {
  const base = resolveBaseline(repoRoot, config, options.baseline);
  const result = lint({
    pins: scan.pins,
    model,
    config,
    skipped: scan.skipped,
    problems: scan.problems,
    fileText: fileTextReader(repoRoot),
    baseline: base?.baseline,
    extraRuleIds: options.extraRuleIds,
    extraFindings: options.extraFindings,
  });
  return { ...result, scan, model, ...(base ? { baselineFile: base.file } : {}) };
}

/**
 * Write the baseline for `findings` (minus inline-suppressed ones) to `file` (repo-relative, or absolute
 * inside the repository: a path leading out, through ../ or a symlink, is refused). Returns the entry count.
 */
export function writeBaselineFile(repoRoot: string, file: string, findings: readonly Finding[]): number {
  const baseline = baselineOf(findings);
  writeFileAtomic(containedPath(repoRoot, file, 'the baseline'), serializeBaseline(baseline));
  return baseline.findings.length;
}
