/**
 * `check`: lint and stale on one scan and one build model — the one report a CI
 * job runs. Stale findings go through lint's levels, suppressions and baseline,
 * so `# pinwatch-ignore stale-image reason` and the baseline work for them too.
 *
 * PR mode (`base`): lint findings already present in the base revision's tree
 * are suppressed (a baseline computed from that tree, no file to commit), and
 * stale counts only commits the base has: the PR's own commits that change an
 * image's inputs are `rebuild-needed` notes, the rebuild its build owes.
 */
import type { Config } from '../config/types.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { exportTree, workTreeDiffers } from '../git/tree-export.js';
import { resolveCommitAndPrefix } from '../git/objects.js';
import { historyRewriters } from '../git/history-join.js';
import { cacheFor, withoutCacheFor } from '../cache/index.js';
import { configHash } from '../snapshot/check.js';
import { baselineOf, lintRepo, lintScanned, type LintRepoResult } from '../lint/index.js';
import type { Finding } from '../model/index.js';
import { loadBuildModel } from '../producers/index.js';
import { staleFindings, STALE_RULES } from '../stale/findings.js';
import type { StalePolicy } from '../stale/policy.js';
import { lookFirst, staleReport, type Looked, type StaleReportOptions, type StaleReportResult } from '../stale/repo.js';
import type { ScanResult } from '../scan/index.js';
import type { BuildModel } from '../producers/types.js';

export interface CheckOptions {
  policy: StalePolicy;
  /** Baseline file, or false to ignore any baseline (default: config / .pinwatch-baseline.json when present). */
  baseline?: string | false;
  registry?: StaleReportOptions['registry'];
  /** PR mode: the base revision (the PR's target branch, e.g. origin/main). */
  base?: string;
}

/** What PR mode compared against, and how many lint findings the base tree already had. */
export interface CheckPrMode {
  base: string;
  commit: string;
  /** Commits only the PR has (reachable from HEAD, not from the base). */
  prCommits: number;
  /** Lint findings of this tree that the base tree has too (suppressed as `already on the base`). */
  onBase: number;
  /** Images whose inputs the PR's own commits change. */
  rebuild: string[];
}

export interface CheckResult {
  lint: LintRepoResult;
  stale: StaleReportResult;
  /** Lint findings and stale findings together, after levels, suppressions and baseline. */
  findings: Finding[];
  pr?: CheckPrMode;
}

const STALE_IDS = new Set(STALE_RULES.map((r) => r.id));

export async function checkRepo(repoRoot: string, config: Config, options: CheckOptions): Promise<CheckResult> {
  // the history pass starts first (git reads while the tree is scanned and the recipes are read), unless
  // stale's kept answer may be reused (stale/reuse.ts: its facts are checked meanwhile); one tree walk for
  // both (the scan's records the listing the build model reads), or the tree's snapshot
  const staleOptions = { now: options.policy.now, ...(options.registry ? { registry: options.registry } : {}), ...(options.base !== undefined ? { base: options.base } : {}) };
  // stale's kept answer reused whole (stale/repo.ts lookFirst): lint runs on the kept scan and model, nothing else is derived
  // a plain check may keep its tree's lint findings for PRs against HEAD (keepAsBase): where HEAD is and the root's
  // place in its tree, asked now, beside the kept answer's own git checks, not after the lint
  const place = options.base === undefined && cacheFor(repoRoot).enabled ? resolveCommitAndPrefix(repoRoot, 'HEAD').catch(() => ({})) : undefined;
  const looked = await lookFirst(repoRoot, config, staleOptions, 'HEAD', options.policy.now, true);
  const { scan, model, stale } = 'report' in looked && looked.tree ? { ...looked.tree, stale: looked.report } : await deriveAndJudge(repoRoot, config, staleOptions, looked as Looked);
  const lint = lintScanned(repoRoot, config, scan, model, {
    ...(options.baseline !== undefined ? { baseline: options.baseline } : {}),
    extraRuleIds: STALE_RULES.map((r) => r.id),
    extraFindings: staleFindings(stale, options.policy),
  });
  if (!stale.base) {
    if (place) await keepAsBase(repoRoot, config, stale.head, await place, scan, model);
    return { lint, stale, findings: lint.findings };
  }
  const onBase = await baseFingerprints(repoRoot, config, stale.base.commit);
  let suppressed = 0;
  for (const f of lint.findings) {
    if (f.suppressed || STALE_IDS.has(f.rule) || !f.fingerprint || !onBase.has(f.fingerprint)) continue;
    f.suppressed = { kind: 'baseline', reason: `already in ${stale.base.rev}` };
    suppressed++;
  }
  const pr: CheckPrMode = {
    base: stale.base.rev,
    commit: stale.base.commit,
    prCommits: stale.base.prCommits,
    onBase: suppressed,
    rebuild: stale.images.filter((i) => (i.rebuild ?? []).length > 0).map((i) => i.image),
  };
  return { lint, stale, findings: lint.findings, pr };
}

/** check's tree and stale when no kept answer was reused whole: the tree derived (reusing what lookFirst checked), the model, and stale judged on them. */
async function deriveAndJudge(repoRoot: string, config: Config, staleOptions: StaleReportOptions, looked: Looked): Promise<{ scan: ScanResult; model: BuildModel; stale: StaleReportResult }> {
  const { treeForStale } = await import('../stale/judge.js');
  const tree = await treeForStale(repoRoot, config, staleOptions, 'HEAD', looked);
  const { scan, known } = tree.derived;
  let model: BuildModel;
  try {
    // a model that could not be read fails check as it always did (images/ only notes it)
    model = known.model ?? (await loadBuildModel(repoRoot, config, scan.recipeTree ? { tree: scan.recipeTree } : {}));
  } catch (e) {
    tree.history?.close();
    throw e;
  }
  const stale = await staleReport(repoRoot, config, { scan, model, known, tree, ...staleOptions });
  return { scan, model, stale };
}

/** The cache namespace of the base revisions' lint fingerprints (PR mode). */
export const BASE_LINT_NS = 'base-lint';

/**
 * Where a commit's lint fingerprints are kept: they are a function of the
 * commit's tree, the root's place in it (its prefix), the config and the
 * pinwatch build (the cache's folder). Undefined where nothing is kept: no
 * cache, or replace refs or grafts that could show the commit otherwise
 * (git/history-join.ts historyRewriters).
 */
function baseLintKey(repoRoot: string, commit: string, prefix: string, config: Config): string | undefined {
  if (!cacheFor(repoRoot).enabled || historyRewriters(repoRoot)) return undefined;
  return JSON.stringify([commit, prefix, configHash(config)]);
}

/** The fingerprints PR mode compares with: every finding of a tree linted alone (no baseline, no other command's), less the inline-suppressed. */
const fingerprintsOf = (findings: readonly Finding[]) => baselineOf(findings).findings.map((e) => e.fingerprint);

/**
 * Fingerprints of the lint findings of the base revision's tree (written to a
 * temp folder, linted at the root's place in it with this config, no cache kept
 * for that folder), kept by baseLintKey: a later PR run against the same base
 * exports nothing, nor does the first when a `check` at the base kept them
 * (keepAsBase: the job on the base branch whose cache the PR's job restores).
 */
async function baseFingerprints(repoRoot: string, config: Config, commit: string): Promise<Set<string>> {
  const cache = cacheFor(repoRoot);
  const { prefix = '' } = await resolveCommitAndPrefix(repoRoot, commit);
  const key = baseLintKey(repoRoot, commit, prefix, config);
  const kept = key !== undefined ? cache.getValue<string[]>(BASE_LINT_NS, key) : undefined;
  if (Array.isArray(kept) && kept.every((f) => typeof f === 'string')) {
    cache.note(`PR base ${commit.slice(0, 10)}: its lint findings kept from an earlier run (its tree not written out)`);
    return new Set(kept);
  }
  const tree = await exportTree(repoRoot, commit);
  try {
    // the root's place in the base's tree (a root in a subdirectory: its folder there, or nothing when the base has none)
    const root = join(tree.dir, prefix);
    const fingerprints = existsSync(root) ? fingerprintsOf((await withoutCacheFor(tree.dir, () => lintRepo(root, config, { baseline: false }))).findings) : [];
    if (key !== undefined) cache.putValue(BASE_LINT_NS, key, fingerprints);
    return new Set(fingerprints);
  } finally {
    tree.remove();
  }
}

/**
 * A `check` at HEAD (no --base) keeps its tree's lint fingerprints as the
 * base-lint of HEAD's commit, as baseFingerprints would find them, when the work
 * tree is exactly the tree exportTree would write for HEAD (git/tree-export.ts
 * workTreeDiffers: what a CI job's fresh checkout is). The same files under the
 * same root and config give the same scan, build model and lint (none of them
 * reads git), so the base branch's job spares each PR's first run writing the
 * base's tree out. Asked only while nothing is kept for the commit (three git
 * processes, once per commit: a tree that differs is remembered too); `-v` says
 * why not where it differs.
 */
async function keepAsBase(repoRoot: string, config: Config, head: string, place: { commit?: string; prefix?: string }, scan: ScanResult, model: BuildModel): Promise<void> {
  const cache = cacheFor(repoRoot);
  const { commit, prefix } = place;
  if (commit === undefined || prefix === undefined || commit !== head) return;
  const key = baseLintKey(repoRoot, commit, prefix, config);
  if (key === undefined || cache.getValue<unknown>(BASE_LINT_NS, key) !== undefined) return;
  const differs = await workTreeDiffers(repoRoot, prefix);
  if (differs !== undefined) {
    // remembered, so a work tree with local files does not ask git again at every run at this commit (a PR
    // run against it takes only a list: it writes the base's tree out as without one, and keeps what it finds)
    cache.putValue(BASE_LINT_NS, key, { notKept: differs });
    cache.note(`this tree's lint findings not kept for a PR against ${commit.slice(0, 10)}: ${differs}`);
    return;
  }
  cache.putValue(BASE_LINT_NS, key, fingerprintsOf(lintScanned(repoRoot, config, scan, model, { baseline: false }).findings));
  cache.note(`this tree's lint findings kept for a PR against ${commit.slice(0, 10)} (its tree will not be written out)`);
}
