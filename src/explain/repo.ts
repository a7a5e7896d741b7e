/**
 * `pinwatch explain IMAGE`: everything pinwatch knows about one first-party
 * image, with how it found each thing: pins, producers, build recipe, build
 * inputs (derivation steps), provenance (each method: answered or why not),
 * and the unshipped commits.
 */
import type { Config } from '../config/types.js';
import type { Pin, Problem } from '../model/index.js';
import { canonicalRepository } from '../config/aliases.js';
import { distinctProducers, stampIndex, writeCoversPin, type BuildRecipe, type Producer } from '../producers/index.js';
import { scanRepo, type ScanResult } from '../scan/index.js';
import { imagesFromPins } from '../images/images.js';
import { NO_FIRST_PARTY_HINT, resolveImage } from '../images/resolve.js';
import { usesGitTag } from '../provenance/sources.js';
import { pinSearch, staleConfigOptions } from '../stale/judge.js';
import { computeStale, startHistory, type StaleOptions, type StaleImage } from '../stale/index.js';

export interface ExplainedPin {
  pin: Pin;
  /** Producers that stamp this pin (`Makefile:target`), with whether the build reaches them. */
  producers: { id: string; built: boolean; builtVia?: string[]; via: string[] }[];
}

export interface Explanation {
  image: string;
  repository: string;
  declared?: { key: string };
  pins: ExplainedPin[];
  recipes: BuildRecipe[];
  /** Build problems about this image (a recipe found and not read: Problem `repository`), as lint would report them. */
  recipeProblems: Problem[];
  missingInputsReason?: string;
  /** One entry per pinned digest: status, provenance steps, unshipped commits, inputs. */
  stale: StaleImage[];
  notes: string[];
}

export interface ExplainOptions extends Omit<StaleOptions, 'methods' | 'buildCommit'> {
  scan?: ScanResult;
}

export async function explainImage(repoRoot: string, config: Config, query: string, opts: ExplainOptions = {}): Promise<Explanation> {
  // git reads history while the scan and the recipe model run (stopped if the image is not found)
  const history = opts.history ?? startHistory(repoRoot, opts.head ?? 'HEAD', undefined, usesGitTag(config));
  let known: Awaited<ReturnType<typeof imagesFromPins>>;
  let match: (typeof known.images)[number];
  let search: ReturnType<typeof pinSearch>;
  try {
    const scan = opts.scan ?? (await scanRepo(repoRoot, config, { recipeTree: true }));
    search = pinSearch(config, scan.pins);
    history.prefetch(scan.pins.map((p) => p.file), search.pinFiles.length > 0 ? search.pinLike : undefined);
    known = await imagesFromPins(repoRoot, config, scan.pins, undefined, { unpinned: true, ...(scan.recipeTree ? { tree: scan.recipeTree } : {}) });
    match = resolveImage(query, known.images, { noneHint: NO_FIRST_PARTY_HINT, aliases: config.aliases });
  } catch (e) {
    history.close();
    throw e;
  }
  // every scanned digest pin file searched, as stale's whole run does: the image's answer is that run's
  const report = await computeStale(repoRoot, [match], { ...opts, history, ...search, ...staleConfigOptions(config, opts.registry) });
  const stamps = known.model ? stampIndex(known.model) : undefined;
  const producers = (pin: Pin): Producer[] => (stamps ? distinctProducers(stamps(pin)) : []);
  return {
    image: match.image,
    repository: match.repository,
    ...(match.declared ? { declared: { key: match.declared.key } } : {}),
    pins: match.pins.map((pin) => ({
      pin,
      producers: producers(pin).map((p) => ({
        id: p.id,
        built: p.built,
        ...(p.builtVia ? { builtVia: p.builtVia } : {}),
        via: p.writes.filter((w) => writeCoversPin(w, pin)).map((w) => `${w.via} at ${w.source.file}:${w.source.line}`),
      })),
    })),
    recipes: match.recipes,
    recipeProblems: (known.model?.problems ?? []).filter((p) => p.repository !== undefined && canonicalRepository(p.repository, config.aliases) === match.repository),
    ...(match.missingInputsReason ? { missingInputsReason: match.missingInputsReason } : {}),
    stale: report.images,
    notes: [
      ...(match.unpinned ? [`${match.repository} is pinned nowhere in the tree (${match.unpinned === 'declared' ? 'declared in pinwatch.yaml' : 'a recipe builds it'}): there is no pinned digest to judge, only its recipe and build inputs`] : []),
      ...known.notes.filter((n) => !n.includes('pinned nowhere in the tree')),
      ...report.warnings,
    ],
  };
}
