/**
 * The build model from its two halves (repo.ts reads them): the recipe files of
 * the other kinds, and the Makefile side, which takes from them only the make
 * calls they run, each label and source line a placeholder of its index
 * (followInput); combineModel puts them back, orders the recipes and dedupes the
 * problems. Kept apart from the readers so a kept model is joined without
 * loading them (snapshot/check.ts).
 */
import type { Config } from '../config/types.js';
import type { Problem } from '../model/index.js';
import { declaredProducers } from './declared.js';
import { recipeAt } from './recipes.js';
import { withRetags } from './retag.js';
import type { Retag } from './commands.js';
import type { BuildModel, BuildRecipe, FollowedMake, Producer } from './types.js';

/** The recipe files of the other kinds as read (kinds.ts), with their problems. */
export interface RecipeFiles {
  files: string[];
  recipes: BuildRecipe[];
  makes: FollowedMake[];
  problems: Problem[];
}

/** What the Makefile side takes from the recipe files: their make calls, each label and line a placeholder of its index. */
export interface FollowInput {
  makes: FollowedMake[];
  /** The build entry is a recipe file of another kind: the build is what its make calls reach. */
  entryIsRecipeFile: boolean;
}

const PLACE_OPEN = '\uE000';
const PLACE_CLOSE = '\uE001';
const PLACEHOLDER = /\uE000(\d+)\uE001/g;

export function followInput(config: Config, files: RecipeFiles): FollowInput {
  const entryFile = entryFileOf(config.buildEntry);
  return {
    makes: files.makes.map((m, i) => ({ ...m, make: { ...m.make, source: { file: m.make.source.file, line: -(i + 1) } }, label: `${PLACE_OPEN}${i}${PLACE_CLOSE}` })),
    entryIsRecipeFile: files.files.includes(entryFile),
  };
}

/** The file of a build entry (`FILE:TARGET`, or a file). */
export function entryFileOf(entry: string): string {
  return entry.slice(0, entry.lastIndexOf(':') > 0 ? entry.lastIndexOf(':') : entry.length);
}

/** The Makefile side of the model: producers and recipes of the Makefiles, and of the make calls the recipe files run (placeholders kept). */
export interface MakeSide {
  producers: Producer[];
  /** Recipes of the Makefiles, read plainly. */
  recipes: BuildRecipe[];
  /** Recipes the followed make calls reach, read with each call's variables and env. */
  viaMake: BuildRecipe[];
  problems: Problem[];
  /** Names the Makefiles give images after their build (`docker tag`, `docker manifest create`): retag.ts. */
  retags?: Retag[];
}

/** The model from its two halves: the make calls' labels and lines put back, the recipes ordered, the problems deduplicated. */
export function combineModel(config: Config, vendored: readonly string[], files: RecipeFiles, side: MakeSide): BuildModel {
  const { producers, recipes: makeRecipes, viaMake, problems: sideProblems } = relabel(side, files.makes);
  const recipes = [...makeRecipes, ...files.recipes];
  const problems = [...files.problems, ...sideProblems];
  // A build a workflow or Cloud Build step runs, read with the step's env: when it tags what the plain
  // reading tags, the plain recipe is that build and comes first (an image's inputs derive from its first
  // recipe: the build CI really does); when it tags something else (another registry), it is added.
  const keys = new Map<BuildRecipe, string>();
  const key = (r: BuildRecipe) => {
    let k = keys.get(r);
    if (k === undefined) keys.set(r, (k = `${r.makefile}:${recipeAt(r)}:${JSON.stringify([...r.repositories].sort())}`));
    return k;
  };
  const ran = new Set(viaMake.map(key));
  const plainKeys = new Set(recipes.map(key));
  const first = recipes.filter((r) => ran.has(key(r)));
  const rest = recipes.filter((r) => !ran.has(key(r)));
  const firstOfKey = new Map<string, BuildRecipe>();
  for (const r of viaMake) if (!firstOfKey.has(key(r))) firstOfKey.set(key(r), r);
  const added = viaMake.filter((r) => r.repositories.length > 0 && !plainKeys.has(key(r)) && firstOfKey.get(key(r)) === r);
  recipes.splice(0, recipes.length, ...withRetags([...first, ...rest, ...added], side.retags ?? []));
  const all = [...producers, ...declaredProducers(config.producers, config.origin.file ?? 'pinwatch.yaml')];
  return { entry: config.buildEntry, producers: all, recipes, problems: dedupe(problems), vendored: [...vendored] };
}

/**
 * `value` with every make call's placeholder put back: in text its label, as a negative `line` its source
 * line. Only what holds a placeholder is copied (plain objects, arrays, Maps and Sets; a shared one once:
 * a kept side comes from a structured clone, which keeps them shared); the rest is the very value given.
 */
function relabel<T>(value: T, makes: readonly FollowedMake[]): T {
  const seen = new Map<object, unknown>();
  const text = (s: string) => (s.includes(PLACE_OPEN) ? s.replace(PLACEHOLDER, (_m, i: string) => makes[Number(i)]?.label ?? _m) : s);
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === 'string') return text(v);
    if (typeof v === 'number') return key === 'line' && v < 0 ? (makes[-v - 1]?.make.source.line ?? v) : v;
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return seen.get(v);
    seen.set(v, v); // a cycle back to it is left as it is
    let out: unknown = v;
    if (Array.isArray(v)) {
      const items = v.map((x) => walk(x));
      if (items.some((x, i) => x !== v[i])) out = items;
    } else if (v instanceof Map) {
      const was = [...v];
      const entries = was.map(([k, x]) => [walk(k), walk(x)] as const);
      if (entries.some(([k, x], i) => k !== was[i]![0] || x !== was[i]![1])) out = new Map(entries);
    } else if (v instanceof Set) {
      const was = [...v];
      const items = was.map((x) => walk(x));
      if (items.some((x, i) => x !== was[i])) out = new Set(items);
    } else if (Object.getPrototypeOf(v) === Object.prototype) {
      const entries = Object.entries(v).map(([k, x]) => [k, walk(x, k)] as const);
      if (entries.some(([k, x]) => x !== (v as Record<string, unknown>)[k])) out = Object.fromEntries(entries);
    }
    seen.set(v, out);
    return out;
  };
  return walk(value) as T;
}

function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.file}:${p.line ?? ''}:${p.code}:${p.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
