/**
 * `lintRepo`: lint a repository on disk. Scans it, loads the build model, reads
 * the texts inline directives live in, resolves and reads the baseline, and runs
 * the engine. `writeBaselineFile` records the current findings.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Config } from '../config/types.js';
import type { Finding, Pin } from '../model/index.js';
import { loadBuildModel, producersFor } from '../producers/index.js';
import type { BuildModel } from '../producers/types.js';
import { writeCoversPin } from '../rules/stamps.js';
import type { PinStamp } from '../rules/types.js';
import { readTextFile, scanRepo } from '../scan/index.js';
import type { ScanResult } from '../scan/types.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { resolveInsideRepo } from '../util/repo-path.js';
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

function displayPath(root: string, abs: string): string {
  const rel = relative(root, abs);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : abs;
}

/** Resolve which baseline applies: explicit and configured ones must exist; the default may be absent. */
export function resolveBaseline(root: string, config: Config, option: string | false | undefined): { file: string; baseline: Baseline } | undefined {
  if (option === false) return undefined;
  const named = option ?? config.baseline;
  const abs = resolve(root, named ?? DEFAULT_BASELINE_FILE);
  const file = displayPath(root, abs);
  const baseline = readBaseline(abs, file, named !== undefined);
  return baseline ? { file, baseline } : undefined;
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

/**
 * Who stamps a pin: the producers module decides which producers (its
 * `producersFor`), this picks the writes of each that cover the pin.
 */
export function stampsFromModel(model: BuildModel): (pin: Pin) => PinStamp[] {
  return (pin) =>
    producersFor(model, pin.file, pin.keyPath, pin.line).flatMap((producer) => {
      const covering = producer.writes.filter((w) => writeCoversPin(w, pin));
      const writes = covering.length ? covering : producer.writes.filter((w) => w.file === pin.file);
      return writes.map((write) => ({ producer, write }));
    });
}

export async function lintRepo(repoRoot: string, config: Config, options: LintRepoOptions = {}): Promise<LintRepoResult> {
  const [scan, model] = await Promise.all([scanRepo(repoRoot, config), loadBuildModel(repoRoot, config)]);
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
    stampsOf: stampsFromModel(model),
  });
  return { ...result, scan, model, ...(base ? { baselineFile: base.file } : {}) };
}

/**
 * Write the baseline for `findings` (minus inline-suppressed ones) to `file` (repo-relative, or absolute
 * inside the repository: a path leading out, through ../ or a symlink, is refused). Returns the entry count.
 */
export function writeBaselineFile(repoRoot: string, file: string, findings: readonly Finding[]): number {
  const baseline = baselineOf(findings);
  writeFileAtomic(resolveInsideRepo(repoRoot, file, 'the baseline'), serializeBaseline(baseline));
  return baseline.findings.length;
}
