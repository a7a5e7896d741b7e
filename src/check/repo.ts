/**
 * `check`: lint and stale on one scan and one build model — the one report a CI
 * job runs. Stale findings go through lint's levels, suppressions and baseline,
 * so `# pinwatch-ignore stale-image reason` and the baseline work for them too.
 */
import type { Config } from '../config/types.js';
import { lintScanned, type LintRepoResult } from '../lint/index.js';
import type { Finding } from '../model/index.js';
import { loadBuildModel } from '../producers/index.js';
import { scanRepo } from '../scan/index.js';
import { staleFindings, STALE_RULES, staleReport, type StalePolicy, type StaleReportOptions, type StaleReportResult } from '../stale/index.js';

export interface CheckOptions {
  policy: StalePolicy;
  /** Baseline file, or false to ignore any baseline (default: config / .pinwatch-baseline.json when present). */
  baseline?: string | false;
  registry?: StaleReportOptions['registry'];
}

export interface CheckResult {
  lint: LintRepoResult;
  stale: StaleReportResult;
  /** Lint findings and stale findings together, after levels, suppressions and baseline. */
  findings: Finding[];
}

export async function checkRepo(repoRoot: string, config: Config, options: CheckOptions): Promise<CheckResult> {
  const [scan, model] = await Promise.all([scanRepo(repoRoot, config), loadBuildModel(repoRoot, config)]);
  const stale = await staleReport(repoRoot, config, {
    scan,
    model,
    now: options.policy.now,
    ...(options.registry ? { registry: options.registry } : {}),
  });
  const lint = lintScanned(repoRoot, config, scan, model, {
    ...(options.baseline !== undefined ? { baseline: options.baseline } : {}),
    extraRuleIds: STALE_RULES.map((r) => r.id),
    extraFindings: staleFindings(stale, options.policy),
  });
  return { lint, stale, findings: lint.findings };
}
