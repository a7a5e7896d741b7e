/**
 * `staleReport`: the whole stale pipeline from a repository root and a config
 * (scan → images and build inputs → engine). `check` and the CLI call this. It
 * looks at the answer kept by the run before first (reuse.ts), with the tree
 * snapshot's records (snapshot/check.ts): when both hold, that answer is this
 * run's and nothing more is loaded or derived; otherwise judge.ts (loaded only
 * then) derives the tree, reads the history and judges.
 */
import { resolve } from 'node:path';
import type { Config } from '../config/types.js';
import { checkedText, checkKept, heldWhole, isDirectory, joinValues, keepRefreshedWhole, realOf } from '../snapshot/check.js';
import type { ScanResult } from '../scan/index.js';
import type { BuildModel } from '../producers/types.js';
import { staleTempsOf, startTreeRecovery } from '../snapshot/recovery.js';
import type { Looked, StaleReportOptions, StaleReportResult, StaleTree } from './judge.js';
import { noteVerdict, openAnswer, reusedReport, type AnswerOptions } from './reuse.js';
import { inPrMode } from './pr-mode.js';
import { cacheFor } from '../cache/index.js';
import { gitStats } from '../git/run.js';
import { nowMs } from '../util/clock.js';

export type { Looked, StaleReportOptions, StaleReportResult } from './judge.js';

/** A kept answer reused: the report, and with `values` the scan and build model it was derived from (check lints them). */
export interface Reused {
  report: StaleReportResult;
  tree?: { scan: ScanResult; model: BuildModel };
}

/**
 * The kept answer looked at before anything is derived: when its git facts
 * hold (reuse.ts), the tree snapshot holds whole as the very derivation the
 * answer came from (snapshot/check.ts heldWhole) and no interrupted write is to
 * be recovered, the answer is this run's, without a scan, a build model, an
 * image or a history read (`values`: the kept scan and model are read too, as
 * deriveTree would reuse them); otherwise what was opened and checked is handed
 * on (judge.ts treeForStale), so deriveTree checks nothing twice.
 */
export async function lookFirst(repoRoot: string, config: Config, answer: AnswerOptions & { registry?: unknown; base?: string }, rev: string, now: Date | undefined, values = false): Promise<Reused | Looked> {
  const start: StaleTree['start'] = { ms: nowMs(), processes: gitStats.processes, checks: 0 };
  const cache = cacheFor(repoRoot);
  const reuse = openAnswer(repoRoot, config, answer, cache);
  start.checks = gitStats.processes - start.processes; // spawned at once by openAnswer
  const root = resolve(repoRoot);
  if (!reuse.verdict || !reuse.kept || !isDirectory(root)) return { start, reuse };
  const recovery = await startTreeRecovery(root, reuse.gitDir);
  if (recovery.journal.length > 0) return { start, reuse, recovery };
  const real = realOf(root);
  const checked = checkKept(root, real, config, cache);
  // a killed write's temp files, looked for in the walk's listings the check holds (git is asked only when the walk changed)
  const staleTemps = staleTempsOf(recovery, checked.walkCheck, real);
  staleTemps.catch(() => undefined); // awaited below, or by deriveTree (which reports what fails)
  if (heldWhole(checked, reuse.kept.snapshot) === undefined) {
    const treeMs = Math.round(nowMs() - start.ms);
    const [verdict, temps] = await Promise.all([reuse.verdict, staleTemps]);
    // the kept scan and model (check lints them) are read only once the answer is known to be reused
    const joined = verdict.ok && temps.length === 0 && values ? joinValues(checked, cache, real, config) : undefined;
    const tree = joined?.scan && joined.model ? { scan: { ...joined.scan.scan, root, config }, model: joined.model.model } : undefined;
    if (verdict.ok && temps.length === 0 && (!values || tree)) {
      keepRefreshedWhole(checked, real, config, cache);
      cache.note(`tree snapshot reused: scan reused, build model reused, inputs of ${checked.inputChecks.size} image(s) reused; ${checkedText(checked)}`);
      noteVerdict(cache, verdict);
      const reused = reusedReport(reuse.kept, verdict, now ?? new Date(), start.processes, { tree: treeMs, reuse: Math.round(nowMs() - start.ms) });
      const report = answer.base === undefined ? reused : await inPrMode(root, reused, answer.base, now ?? new Date());
      return { report, ...(tree ? { tree } : {}) };
    }
  }
  return { start, reuse, recovery, checked };
}

export async function staleReport(repoRoot: string, config: Config, opts: StaleReportOptions = {}): Promise<StaleReportResult> {
  const { scan: givenScan, model: _m, known: _k, tree: givenTree, history: givenHistory, ...answerOpts } = opts;
  // a caller's own scan or history: no kept answer, unless it says which tree the scan came from
  if (givenTree || givenScan || givenHistory) {
    const { judgeStale } = await import('./judge.js');
    return judgeStale(repoRoot, config, opts, givenTree);
  }
  const rev = opts.head ?? 'HEAD';
  const looked = await lookFirst(repoRoot, config, answerOpts, rev, opts.now);
  if ('report' in looked) return looked.report;
  const { judgeStale, treeForStale } = await import('./judge.js');
  return judgeStale(repoRoot, config, opts, await treeForStale(repoRoot, config, answerOpts, rev, looked));
}
