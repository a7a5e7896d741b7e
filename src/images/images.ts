/**
 * First-party image knowledge, from a scan: pins grouped by repository, each
 * with its short name, the pinwatch.yaml entry that declares it, build
 * recipe(s) and build inputs (or the reason they are unknown). Shared by stale,
 * explain and affected.
 */
import type { Config, ImageConfig } from '../config/types.js';
import { canonicalRepository } from '../config/aliases.js';
import { isFirstParty, type Pin } from '../model/index.js';
import { recipeLabel, recipesFor } from '../producers/recipes.js';
import { stampIndex, writeCoversPin } from '../producers/stamps.js';
import type { BuildModel, BuildRecipe } from '../producers/types.js';
import type { BuildInputs } from '../sources/types.js';
import type { RecipeTree } from '../scan/index.js';
import { deriveBuildInputs } from '../sources/derive.js';
import { withSourceMemo } from '../sources/memo.js';
import type { ImageInput } from './types.js';
import { pushTo } from '../util/list.js';
import { turns } from '../util/turns.js';

export interface ImageKnowledge extends ImageInput {
  recipes: BuildRecipe[];
  /** The config entry, when pinwatch.yaml declares the image. */
  declared?: { key: string; entry: ImageConfig };
  /** Set for an image that nothing in the tree pins: declared in pinwatch.yaml, or a first-party repository a recipe builds. */
  unpinned?: 'declared' | 'recipe';
}

export interface ImagesOptions {
  /** Also list images nothing pins (declared ones, first-party repositories recipes build): explain and affected use them. */
  unpinned?: boolean;
  /** The tree listing for the build model, from the scan's walk (ScanResult.recipeTree): saves a second walk. */
  tree?: RecipeTree;
  /**
   * Derives one pinned image's build inputs from its request (the tree-state snapshot reuses an
   * image's inputs while what they were derived from holds: src/snapshot/); default deriveImageInputs.
   * The answer is the caller's to keep: the steps this module adds go on a copy.
   */
  deriveInputs?: (repoRoot: string, request: ImageInputsRequest) => Promise<BuildInputs>;
}

/** What one image's build inputs are derived from (besides the files they read): its name, its first recipe, its config entry. */
export interface ImageInputsRequest {
  image: string;
  recipe?: BuildRecipe;
  entry?: ImageConfig;
}

export interface ImagesResult {
  images: ImageKnowledge[];
  /** Pins left out (no repository) and modules that could not be used. */
  notes: string[];
  model?: BuildModel;
}

/** Last path component of a repository: `ghcr.io/acme/billing` → `billing`. */
export function shortName(repository: string): string {
  return repository.slice(repository.lastIndexOf('/') + 1);
}

export function declaredImage(config: Config, repository: string): { key: string; entry: ImageConfig } | undefined {
  const { byRepo, byName } = declaredIndex(config.images);
  const found = byRepo.get(repository) ?? byName.get(shortName(repository));
  return found ? { key: found[0], entry: found[1] } : undefined;
}

/** The config's image entries by repository and (entries without one) by key, the first entry winning: built once per config, not once per image. */
const declaredIndexes = new WeakMap<Config['images'], { byRepo: Map<string, [string, ImageConfig]>; byName: Map<string, [string, ImageConfig]> }>();

function declaredIndex(images: Config['images']): { byRepo: Map<string, [string, ImageConfig]>; byName: Map<string, [string, ImageConfig]> } {
  let index = declaredIndexes.get(images);
  if (!index) {
    index = { byRepo: new Map(), byName: new Map() };
    for (const entry of Object.entries(images)) {
      if (entry[1].repository) {
        if (!index.byRepo.has(entry[1].repository)) index.byRepo.set(entry[1].repository, entry);
      } else if (!index.byName.has(entry[0])) index.byName.set(entry[0], entry);
    }
    declaredIndexes.set(images, index);
  }
  return index;
}

/**
 * Every repository pinned in the tree (first-party or not) as an IMAGE can name
 * it: repin moves any pin, so it resolves IMAGE over all of them.
 */
export function pinnedImages(config: Config, pins: readonly Pick<Pin, 'ref' | 'source'>[]): { image: string; repository: string; declared?: { key: string; entry: ImageConfig } }[] {
  const repositories = [...new Set(pins.filter((p) => !p.source).map((p) => p.ref.name).filter((n) => n !== ''))].sort();
  return repositories.map((repository) => {
    const declared = declaredImage(config, repository);
    return { image: declared?.key ?? shortName(repository), repository, ...(declared ? { declared } : {}) };
  });
}

/** First-party pins by repository; a pin under an `aliases` prefix is grouped under its canonical repository (the same image). */
export function groupFirstParty(pins: Pin[], aliases: Readonly<Record<string, string>> = {}): { byRepo: Map<string, Pin[]>; incomplete: Pin[] } {
  const byRepo = new Map<string, Pin[]>();
  const incomplete: Pin[] = [];
  for (const pin of pins) {
    // A source ref (ko://, a Skaffold placeholder) is replaced at release: no image is pinned there.
    if (!pin.firstParty || pin.source) continue;
    if (!pin.ref.name || pin.incomplete) {
      incomplete.push(pin);
      continue;
    }
    pushTo(byRepo, canonicalRepository(pin.ref.name, aliases), pin);
  }
  return { byRepo, incomplete };
}

/** Build model once (or the caller's), then recipes and inputs per first-party repository (one derivation run: what the images share is read once). */
export async function imagesFromPins(repoRoot: string, config: Config, pins: Pin[], known?: BuildModel, options: ImagesOptions = {}): Promise<ImagesResult> {
  return withSourceMemo(repoRoot, () => imagesOf(repoRoot, config, pins, known, options));
}

async function imagesOf(repoRoot: string, config: Config, pins: Pin[], known: BuildModel | undefined, options: ImagesOptions): Promise<ImagesResult> {
  const notes: string[] = [];
  const { byRepo, incomplete } = groupFirstParty(pins, config.aliases);
  for (const p of incomplete) notes.push(`${p.file}:${p.line}: first-party pin without a repository (${p.incomplete ?? 'incomplete reference'}); not judged`);
  let model: BuildModel | undefined = known;
  if (!model) {
    try {
      // the Makefile reader loaded only here: a run whose model is kept (snapshot/) never loads it
      const { loadBuildModel } = await import('../producers/repo.js');
      model = await loadBuildModel(repoRoot, config, options.tree ? { tree: options.tree } : {});
    } catch (e) {
      notes.push(`build model could not be read, so no build recipes are known: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const images: ImageKnowledge[] = [];
  const turn = turns();
  const stampsOf = model ? stampIndex(model) : undefined;
  for (const [repository, repoPins] of [...byRepo].sort(([a], [b]) => a.localeCompare(b))) {
    const declared = declaredImage(config, repository);
    const image = declared?.key ?? shortName(repository);
    const recipes = model ? recipesOf(model, repository, repoPins, notes, config.aliases) : [];
    const stamped = stampsOf ? stampedPins(repoPins, recipes, stampsOf) : [];
    const knowledge: ImageKnowledge = { image, repository, pins: repoPins, recipes, ...(declared ? { declared } : {}), ...(stamped.length > 0 ? { stamped } : {}) };
    if (recipes.length === 0 && !declared) {
      knowledge.missingInputsReason = `no build recipe tags ${repository} and pinwatch.yaml declares no image for it (add images.${image} with dockerfile/context or inputs)`;
    } else {
      // the derivation asks the file system synchronously (sources/memo.ts): let git's pipes drain now and then
      await turn();
      const request: ImageInputsRequest = { image, ...(recipes[0] ? { recipe: recipes[0] } : {}), ...(declared ? { entry: declared.entry } : {}) };
      const derived = await (options.deriveInputs ?? deriveImageInputs)(repoRoot, request);
      knowledge.inputs = { ...derived, steps: [...derived.steps] };
      if (recipes.length > 1) knowledge.inputs.steps.unshift(`${recipes.length} recipes build ${repository}; inputs derived from the first: ${recipeLabel(recipes[0]!)}`);
    }
    images.push(knowledge);
  }
  const unpinned = unpinnedImages(config, byRepo, model);
  if (unpinned.length > 0 && !options.unpinned) {
    notes.push(`${unpinned.length} image(s) built or declared here are pinned nowhere in the tree (${unpinned.map((u) => u.repository).join(', ')}): stale has no pinned digest to judge; explain and affected use them`);
  }
  if (options.unpinned) {
    for (const u of unpinned) {
      const recipes = model ? recipesOf(model, u.repository, [], notes, config.aliases) : [];
      const knowledge: ImageKnowledge = { image: u.declared?.key ?? shortName(u.repository), repository: u.repository, pins: [], recipes, unpinned: u.declared ? 'declared' : 'recipe', ...(u.declared ? { declared: u.declared } : {}) };
      if (recipes.length === 0 && !u.declared) knowledge.missingInputsReason = `no build recipe tags ${u.repository}`;
      else {
        knowledge.inputs = await deriveImageInputs(repoRoot, { image: knowledge.image, ...(recipes[0] ? { recipe: recipes[0] } : {}), ...(u.declared ? { entry: u.declared.entry } : {}) });
        knowledge.inputs.steps.unshift(`${u.repository} is pinned nowhere in the tree; ${u.declared ? `declared in pinwatch.yaml as images.${u.declared.key}` : `built by ${recipeLabel(recipes[0]!)}`}`);
        if (recipes.length > 1) knowledge.inputs.steps.splice(1, 0, `${recipes.length} recipes build ${u.repository}; inputs derived from the first: ${recipeLabel(recipes[0]!)}`);
      }
      images.push(knowledge);
    }
    images.sort((a, b) => a.repository.localeCompare(b.repository));
  }
  return { images, notes, ...(model ? { model } : {}) };
}

/** The pins a recipe of the image or any producer stamps, each with the first stamper's name. */
function stampedPins(pins: Pin[], recipes: BuildRecipe[], stampsOf: ReturnType<typeof stampIndex>): NonNullable<ImageInput['stamped']> {
  return pins.flatMap((pin) => {
    const recipe = recipes.find((r) => r.stamps.some((s) => writeCoversPin(s, pin)));
    const by = recipe ? recipeLabel(recipe) : stampsOf(pin)[0]?.producer.id;
    return by ? [{ file: pin.file, line: pin.line, by }] : [];
  });
}

/** Images nothing pins: declared entries with a repository, and first-party repositories some recipe builds. */
function unpinnedImages(config: Config, byRepo: Map<string, Pin[]>, model: BuildModel | undefined): { repository: string; declared?: { key: string; entry: ImageConfig } }[] {
  const out = new Map<string, { repository: string; declared?: { key: string; entry: ImageConfig } }>();
  for (const [key, entry] of Object.entries(config.images)) {
    if (entry.repository && !byRepo.has(entry.repository)) out.set(entry.repository, { repository: entry.repository, declared: { key, entry } });
  }
  for (const r of model?.recipes ?? []) {
    for (const tagged of r.repositories) {
      // a recipe that tags an alias builds the canonical image
      const repository = canonicalRepository(tagged, config.aliases);
      if (byRepo.has(repository) || out.has(repository) || !isFirstParty(repository, config.firstParty)) continue;
      const declared = declaredImage(config, repository);
      out.set(repository, { repository, ...(declared ? { declared } : {}) });
    }
  }
  return [...out.values()].sort((a, b) => a.repository.localeCompare(b.repository));
}

function recipesOf(model: BuildModel, repository: string, pins: Pin[], notes: string[], aliases: Readonly<Record<string, string>>): BuildRecipe[] {
  try {
    // a recipe that tags an alias (the staging or CI name) builds the canonical image
    return recipesFor(model, repository, pins, (r) => canonicalRepository(r, aliases));
  } catch (e) {
    notes.push(`recipes for ${repository} could not be found: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }
}

/** One image's build inputs from its request; what cannot be derived becomes `unknownReason` (never throws). */
export async function deriveImageInputs(repoRoot: string, { image, recipe, entry }: ImageInputsRequest): Promise<BuildInputs> {
  try {
    return await deriveBuildInputs(repoRoot, { image, ...(recipe ? { recipe } : {}), ...(entry ? { config: entry } : {}) });
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return { image, inputs: [], ignore: [], steps: [], unknownReason: msg };
  }
}
