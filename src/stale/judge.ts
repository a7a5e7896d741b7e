/**
 * The stale pipeline when no kept answer is reused (stale/repo.ts looked first):
 * the tree derived (scan → images and build inputs, snapshot/), the history
 * read and every image judged (history.ts), and the answer kept for the next
 * run (reuse.ts). check calls treeForStale for its scan too.
 */
import type { Config } from '../config/types.js';
import type { ScanResult } from '../scan/index.js';
import { walkReadsPath } from '../scan/walk.js';
import { deriveTree, type DerivedTree } from '../snapshot/index.js';
import { RECOVERY_CODES } from '../journal/index.js';
import { imagesFromPins, type ImagesResult } from '../images/images.js';
import { NO_FIRST_PARTY_HINT, resolveImage } from '../images/resolve.js';
import { methodsFor, tagRulesOf, usesGitTag } from '../provenance/sources.js';
import { computeStale, digestPinFiles, presentedAs, type ObservedFacts, type StaleOptions } from './history.js';
import { startHistory, type StartedHistory } from './window.js';
import { keepAnswer, keepJudgedAgain, keepOnSnapshot, noteVerdict, openAnswer, openPicks, quietText, reusedReport, type AnswerOptions, type AnswerReuse, type Verdict } from './reuse.js';
import type { BuildModel } from '../producers/index.js';
import type { KeptChecks } from '../snapshot/index.js';
import type { Recovery } from '../journal/index.js';
import type { StaleReport } from './types.js';
import type { Touched } from './reuse.js';
import { imagesHash, judgeTouched } from './partial.js';
import { inPrMode } from './pr-mode.js';
import { cacheFor } from '../cache/index.js';
import { gitStats } from '../git/run.js';
import { nowMs } from '../util/clock.js';

export interface StaleReportOptions extends Omit<StaleOptions, 'methods' | 'buildCommit' | 'pinFiles'> {
  /** Reuse a scan the caller already made (check does lint and stale on one scan). */
  scan?: ScanResult;
  /** Reuse a build model the caller already read. */
  model?: BuildModel;
  /** Reuse the image knowledge the caller already derived (with `scan`: check's deriveTree). */
  known?: ImagesResult;
  /** Only these images (each an IMAGE: repository, config key or short name). */
  only?: string[];
  /** With `scan`: the tree it came from (`treeForStale`), so a kept answer may be reused and this one kept. */
  tree?: StaleTree;
}

export interface StaleReportResult extends StaleReport {
  /** Notes from gathering build knowledge (modules missing, pins without a repository). */
  notes: string[];
}

/** The kept answer opened and, when there is one to reuse, the tree's records checked: what treeForStale goes on from. */
export interface Looked {
  start: StaleTree['start'];
  reuse: AnswerReuse;
  recovery?: Recovery;
  checked?: KeptChecks;
}

/** The tree's derivation for stale, the kept answer looked at, and the history pass when it was started. */
export interface StaleTree {
  derived: DerivedTree;
  reuse: AnswerReuse;
  history?: StartedHistory;
  /** When the look began (nowMs()), git's process count then, the kept answer's check's processes, and how long the tree took (ms). */
  start: { ms: number; processes: number; checks: number; tree?: number };
}

/**
 * The scan and image knowledge of the tree (deriveTree), for stale and check:
 * with an answer kept for these options, its git facts are checked (reuse.ts)
 * while the snapshot is, and the history pass is started only once the snapshot
 * misses (at the scan, as without one), the verdict rules out both reuse and a
 * judgement of touched images alone, or staleReport rules reuse out; with
 * none, the history pass starts first, reading on the other core meanwhile.
 * `looked`: what lookFirst opened and checked already.
 */
export async function treeForStale(repoRoot: string, config: Config, answer: AnswerOptions & { registry?: unknown; base?: string }, rev = 'HEAD', looked?: Looked): Promise<StaleTree> {
  const start: StaleTree['start'] = looked?.start ?? { ms: nowMs(), processes: gitStats.processes, checks: 0 };
  const reuse = looked?.reuse ?? openAnswer(repoRoot, config, answer, cacheFor(repoRoot));
  if (!looked) start.checks = gitStats.processes - start.processes; // spawned at once by openAnswer
  let history = reuse.verdict ? undefined : startPass(repoRoot, config, rev, reuse);
  // the kept answer's verdict once known: one that holds, or fails only by touched inputs (partial.ts), may need no history;
  // any other failure is a full judgement whatever the tree holds, so the pass starts then, beside the tree's derivation
  let verdict: Verdict | undefined;
  let deriving = true;
  /** The scan, when it came before the verdict: the pass the verdict starts reads its pin files' blobs ahead. */
  let scanned: ScanResult | undefined;
  void reuse.verdict?.then((v) => {
    verdict = v;
    if (!deriving || history || v.ok || v.touched) return;
    try {
      history = startPass(repoRoot, config, rev, reuse);
      if (scanned) prefetchFor(config, history, scanned.pins);
    } catch {
      // not here, where nothing awaits it: judgeStale starts the pass (or reads ahead) again, and reports what fails
    }
  });
  try {
    const derived = await deriveTree(repoRoot, config, {
      ...(looked?.recovery ? { recovery: looked.recovery } : {}),
      ...(looked?.checked ? { checked: looked.checked } : {}),
      onScan: (s, reused) => {
        if (!history && reused) return; // the answer may be reused: staleReport decides
        if (!history && verdict && (verdict.ok || verdict.touched)) return; // reused, or its touched images judged again: judgeStale starts the pass if not
        // not known yet: the verdict starts the pass if it needs one (a judgement of touched images alone reads no
        // history; starting it here read and deserialized the kept history for nothing whenever git was slower)
        if (!history && reuse.verdict && !verdict) return void (scanned = s);
        prefetchFor(config, (history ??= startPass(repoRoot, config, rev, reuse)), s.pins);
      },
    });
    start.tree = Math.round(nowMs() - start.ms);
    return { derived, reuse, start, ...(history ? { history } : {}) };
  } catch (e) {
    history?.close();
    throw e;
  } finally {
    deriving = false; // a verdict known only now starts no pass: judgeStale does, if it needs one
  }
}

/** The history pass for a judgement under `config`: with what a kept answer's check asked already, and the tags when git-tag is a method. */
function startPass(repoRoot: string, config: Config, rev: string, reuse: AnswerReuse | undefined): StartedHistory {
  return startHistory(repoRoot, rev, reuse?.asked, usesGitTag(config));
}

/**
 * The rest of staleReport once no kept answer was reused before the tree: `tree`
 * from treeForStale (undefined: the caller's own scan or history, nothing kept).
 */
export async function judgeStale(repoRoot: string, config: Config, opts: StaleReportOptions, tree: StaleTree | undefined): Promise<StaleReportResult> {
  const rev = opts.head ?? 'HEAD';
  const cache = cacheFor(repoRoot);
  const { scan: givenScan, known: givenKnown, history: givenHistory } = opts;
  let history = givenHistory ?? tree?.history;
  let scan: ScanResult;
  let known: ImagesResult;
  let images: ImagesResult['images'];
  let notes: string[];
  let recovered: string[];
  try {
    scan = givenScan ?? tree!.derived.scan;
    known = givenKnown ?? (givenScan ? await imagesFromPins(repoRoot, config, scan.pins, opts.model, scan.recipeTree ? { tree: scan.recipeTree } : {}) : tree!.derived.known);
    images = selectImages(known, opts.only, config.aliases);
    const firstParty = config.firstParty.length === 0 ? ['no first-party prefixes are configured (firstParty in pinwatch.yaml or --first-party), so there is nothing to judge'] : [];
    // what the scan's recovery of an interrupted write did (journal/journal.ts), said here too
    recovered = scan.problems.filter((p) => RECOVERY_CODES.has(p.code)).map((p) => `${p.file}: ${p.code}: ${p.reason}`);
    notes = [...recovered, ...firstParty, ...known.notes];
    if (tree) {
      const { reuse, derived } = tree;
      const verdict: Verdict | undefined = reuse.verdict ? await reuse.verdict : reuse.refused ? { ok: false, reason: reuse.refused } : undefined;
      tree.start.checks += verdict?.spawned ?? 0;
      if (verdict?.ok && reuse.kept) {
        if (derived.snapshot.reused && derived.snapshot.id === reuse.kept.snapshot) {
          history?.close();
          noteVerdict(cache, verdict);
          const reused = reusedReport(reuse.kept, verdict, opts.now ?? new Date(), tree.start.processes, { tree: tree.start.tree ?? 0, reuse: Math.round(nowMs() - tree.start.ms) });
          return opts.base === undefined ? reused : inPrMode(repoRoot, reused, opts.base, opts.now ?? new Date());
        }
        const changed = derived.snapshot.reused ? 'the tree snapshot is not the one it was derived from' : `the tree snapshot does not hold (${derived.snapshot.reason ?? 'changed'})`;
        // the tree changed, yet what a judgement reads of the images derived from it is what the answer judged: its
        // judgement rests on that, the config and git's facts alone (computeStale reads nothing else of the tree), so it
        // is this run's too, showing each image where it is written now (a line added above a pin moves it)
        const shown = recovered.length === 0 && reuse.kept.images !== undefined && reuse.kept.images === imagesHash(images) ? presentedAs(reuse.kept.report.images, images) : undefined;
        if (shown) {
          history?.close();
          const moved = JSON.stringify(shown) !== JSON.stringify(reuse.kept.report.images);
          cache.note(`answer reused from ${verdict.tip.slice(0, 10)}: ${changed}, but the images derived from it are the ones it judged${moved ? ' (shown where they are written now)' : ''}; ${verdict.newCommits} new commit(s) touch no image's pins or inputs${quietText(verdict.quietPinEdits, verdict.quietTagEdits, verdict.unjudged)}`);
          const kept = { ...reuse.kept, report: { ...reuse.kept.report, images: shown } };
          if (derived.snapshot.id) keepOnSnapshot(repoRoot, cache, { ...reuse, kept }, derived.snapshot.id, notes);
          const reused = { ...reusedReport(kept, verdict, opts.now ?? new Date(), tree.start.processes, { tree: tree.start.tree ?? 0, reuse: Math.round(nowMs() - tree.start.ms) }), notes };
          return opts.base === undefined ? reused : inPrMode(repoRoot, reused, opts.base, opts.now ?? new Date());
        }
        noteVerdict(cache, { ok: false, reason: changed });
      } else if (verdict) {
        noteVerdict(cache, verdict);
        if (!verdict.ok && verdict.touched && recovered.length === 0) {
          const again = await judgedAgain(repoRoot, config, opts, tree, verdict.touched, images, notes);
          if (again) {
            history?.close();
            return again;
          }
        }
      }
    }
    // started now when reuse was possible (or a caller's scan came without a pass); the pin files' blobs read ahead (once)
    prefetchFor(config, (history ??= startPass(repoRoot, config, rev, tree?.reuse)), scan.pins);
  } catch (e) {
    history?.close();
    throw e;
  }
  const observed: ObservedFacts = {};
  const report = await computeStale(repoRoot, images, { ...opts, history, observed, ...pinSearch(config, scan.pins), ...staleConfigOptions(config, opts.registry) });
  // the kept answer's check ran git too
  const result = { ...report, gitProcesses: report.gitProcesses + (tree?.start.checks ?? 0), notes };
  if (tree && recovered.length === 0) {
    // PR mode: the judgement before the PR's own commits were split off is what is kept (pr-mode.ts)
    const { base: _b, ...judged } = result;
    keepAnswer(repoRoot, cache, tree.reuse, observed.unsplit ? { ...judged, images: observed.unsplit } : result, tree.derived.snapshot.id, observed, imagesHash(images));
  }
  return result;
}

/**
 * The kept answer with the images new commits touch judged again alone
 * (partial.ts), kept for the next run; undefined, with the reason said under
 * -v, when that cannot be the full judgement's answer.
 */
async function judgedAgain(repoRoot: string, config: Config, opts: StaleReportOptions, tree: StaleTree, touched: Touched, images: ImagesResult['images'], notes: string[]): Promise<StaleReportResult | undefined> {
  const cache = cacheFor(repoRoot);
  const { reuse } = tree;
  const picks = openPicks(cache, reuse);
  if (!reuse.kept || !picks) {
    cache.note('answer not judged again for the touched images alone: no pick facts kept with it');
    return undefined;
  }
  const now = opts.now ?? new Date();
  const { fixPattern } = staleConfigOptions(config, undefined);
  const again = await judgeTouched(repoRoot, reuse.kept.report, picks, touched, images, { now, ...(fixPattern ? { fixPattern } : {}) });
  if ('refused' in again) {
    cache.note(`answer not judged again for the touched images alone: ${again.refused}`);
    return undefined;
  }
  const kept = reuse.kept.report;
  const report: StaleReportResult = {
    ...kept,
    head: touched.head,
    images: again.images,
    notes,
    gitProcesses: gitStats.processes - tree.start.processes,
    timings: { facts: touched.ms, tree: tree.start.tree ?? 0, judged: Math.round(nowMs() - tree.start.ms) },
    reused: { from: touched.tip, newCommits: touched.commits.length, judged: again.judged },
  };
  const snapshot = tree.derived.snapshot.id;
  if (snapshot) keepJudgedAgain(repoRoot, cache, reuse, report, snapshot, imagesHash(images), again.picks);
  cache.note(`answer judged again for ${again.judged.length > 0 ? again.judged.join(', ') : 'no image'} alone from ${touched.tip.slice(0, 10)}: ${touched.commits.length} new commit(s); every other image's judgement kept`);
  return opts.base === undefined ? report : inPrMode(repoRoot, report, opts.base, now);
}

/**
 * The pin files digest history searches for a tree whose scan found `pins`
 * (every scanned digest pin file: history.ts `digestPinFiles`), and the paths
 * the scan would read as pin files, for the deleted ones (StaleOptions
 * `pinLike`): stale, explain and running ask the same, so an image gets the
 * whole run's answer from each.
 */
export function pinSearch(config: Config, pins: ScanResult['pins']): Required<Pick<StaleOptions, 'pinFiles' | 'pinLike'>> {
  return { pinFiles: digestPinFiles(pins), pinLike: walkReadsPath(config) };
}

/** Read ahead the blobs the digest archaeology will ask for (`pinSearch`'s files), when a pin carries a digest. */
export function prefetchFor(config: Config, history: StartedHistory, pins: ScanResult['pins']): void {
  const { pinFiles, pinLike } = pinSearch(config, pins);
  history.prefetch(pinFiles, pinFiles.length > 0 ? pinLike : undefined);
}

/** What computeStale takes from the config: methods, build commit, tag rules and the fix pattern. */
export function staleConfigOptions(config: Config, registry: StaleOptions['registry']): Pick<StaleOptions, 'methods' | 'buildCommit' | 'tagRules' | 'fixPattern'> {
  return {
    methods: methodsFor(config, registry),
    buildCommit: config.provenance.buildCommit,
    tagRules: tagRulesOf(config),
    ...(config.stale.fixPattern ? { fixPattern: new RegExp(config.stale.fixPattern, 'm') } : {}),
  };
}

/**
 * The images asked for by name (src/images/resolve.ts: an ambiguous or unknown
 * name is a usage error, never a silent pick or an empty report), in the
 * report's order, each once.
 */
export function selectImages(known: ImagesResult, only: string[] | undefined, aliases: Readonly<Record<string, string>> = {}): ImagesResult['images'] {
  if (!only || only.length === 0) return known.images;
  const picked = new Set(only.map((q) => resolveImage(q, known.images, { noneHint: NO_FIRST_PARTY_HINT, aliases })));
  return known.images.filter((i) => picked.has(i));
}
