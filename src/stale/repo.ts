/**
 * `staleReport`: the whole stale pipeline from a repository root and a config
 * (scan → images and build inputs → engine). `check` and the CLI call this.
 */
import type { Config } from '../config/types.js';
import type { ScanResult } from '../scan/index.js';
import { deriveTree } from '../snapshot/index.js';
import { RECOVERY_CODES } from '../journal/index.js';
import type { BuildModel } from '../producers/index.js';
import { imagesFromPins, type ImagesResult } from '../images/images.js';
import { NO_FIRST_PARTY_HINT, resolveImage } from '../images/resolve.js';
import { methodsFor, tagRulesOf } from '../provenance/sources.js';
import { computeStale, type StaleOptions } from './history.js';
import type { StaleReport } from './types.js';
import { startHistory } from './window.js';
import { keepAnswer, noteVerdict, openAnswer, reusedReport, type Verdict } from './reuse.js';
import type { ObservedFacts } from './history.js';
import { cacheFor } from '../cache/index.js';
import { gitStats } from '../git/run.js';
import { resolve } from 'node:path';

export interface StaleReportOptions extends Omit<StaleOptions, 'methods' | 'buildCommit'> {
  /** Reuse a scan the caller already made (check does lint and stale on one scan). */
  scan?: ScanResult;
  /** Reuse a build model the caller already read. */
  model?: BuildModel;
  /** Reuse the image knowledge the caller already derived (with `scan`: check's deriveTree). */
  known?: ImagesResult;
  /** Only these images (each an IMAGE: repository, config key or short name). */
  only?: string[];
}

export interface StaleReportResult extends StaleReport {
  /** Notes from gathering build knowledge (modules missing, pins without a repository). */
  notes: string[];
}

export async function staleReport(repoRoot: string, config: Config, opts: StaleReportOptions = {}): Promise<StaleReportResult> {
  const rev = opts.head ?? 'HEAD';
  const cache = cacheFor(repoRoot);
  const t0 = performance.now();
  const startProcesses = gitStats.processes;
  // the answer an earlier run kept, and its git facts checked now (stale/reuse.ts); a caller's own scan or history: never
  const reuse = opts.scan || opts.history ? undefined : openAnswer(resolve(repoRoot), config, opts, cache);
  // git reads history on the other core while the scan and the recipe model run; with an answer kept, git checks
  // its facts instead while the tree snapshot is checked, and the history pass starts once reuse is ruled out
  let history = opts.history ?? (reuse?.verdict ? undefined : startHistory(repoRoot, rev));
  let scan: ScanResult;
  let known: ImagesResult;
  let images: ImagesResult['images'];
  let snapshotId: string | undefined;
  try {
    if (opts.scan) {
      scan = opts.scan;
      history!.prefetch(scan.pins.map((p) => p.file));
      known = opts.known ?? (await imagesFromPins(repoRoot, config, scan.pins, opts.model, scan.recipeTree ? { tree: scan.recipeTree } : {}));
    } else {
      // the scan and image knowledge of the tree, from the snapshot when nothing it read changed
      const derived = await deriveTree(repoRoot, config, {
        onScan: (s, reused) => {
          if (!history && reused) return; // the answer may be reused: decided below
          (history ??= startHistory(repoRoot, rev)).prefetch(s.pins.map((p) => p.file));
        },
      });
      ({ scan, known } = derived);
      snapshotId = derived.snapshot.id;
      const verdict: Verdict | undefined = reuse?.verdict ? await reuse.verdict : reuse?.refused ? { ok: false, reason: reuse.refused } : undefined;
      if (verdict?.ok && reuse?.kept) {
        if (derived.snapshot.reused && snapshotId === reuse.kept.snapshot) {
          noteVerdict(cache, verdict);
          return reusedReport(reuse.kept, verdict, opts.now ?? new Date(), startProcesses, Math.round(performance.now() - t0));
        }
        noteVerdict(cache, { ok: false, reason: derived.snapshot.reused ? 'the tree snapshot is not the one it was derived from' : `the tree snapshot does not hold (${derived.snapshot.reason ?? 'changed'})` });
      } else if (verdict) noteVerdict(cache, verdict);
      if (!history) (history = startHistory(repoRoot, rev)).prefetch(scan.pins.map((p) => p.file));
    }
    images = selectImages(known, opts.only, config.aliases);
  } catch (e) {
    history?.close();
    throw e;
  }
  const observed: ObservedFacts = {};
  const report = await computeStale(repoRoot, images, { ...opts, history: history!, observed, ...staleConfigOptions(config, opts.registry) });
  const notes = config.firstParty.length === 0 ? ['no first-party prefixes are configured (firstParty in pinwatch.yaml or --first-party), so there is nothing to judge'] : [];
  // what the scan's recovery of an interrupted write did (journal/journal.ts), said here too
  const recovered = scan.problems.filter((p) => RECOVERY_CODES.has(p.code)).map((p) => `${p.file}: ${p.code}: ${p.reason}`);
  const result = { ...report, notes: [...recovered, ...notes, ...known.notes] };
  if (reuse && recovered.length === 0) keepAnswer(resolve(repoRoot), cache, reuse, result, snapshotId, observed);
  return result;
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
