/**
 * Producers and build recipes of a repository: reads every Makefile in the
 * tree, expands each target's recipe, finds the pin writes and image builds in
 * it, and marks what the build entry point (`Makefile:build`) reaches; adds the
 * recipes of the other kinds (workflows, bake, compose, goreleaser: kinds.ts);
 * vendored trees are not read (BuildModel.vendored lists them). Declared
 * producers from pinwatch.yaml are added as they are.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_BUILD_ENTRY } from '../config/defaults.js';
import type { Config } from '../config/types.js';
import { expandRecipe, targetNames, type MakeReader } from '../make/index.js';
import { producerFor, recipesFor as recipesOfTarget, type TargetFacts } from './assemble.js';
import { readCommands, type FoundWrite } from './commands.js';
import { declaredProducers } from './declared.js';
import { findMakefiles, listRecipeTree, MakefileCache } from './discover.js';
import { walkBuildGraph } from './graph.js';
import { readOtherRecipes } from './kinds.js';
import type { Problem } from '../model/index.js';
import type { BuildModel, BuildRecipe, PinWrite, Producer } from './types.js';

export async function loadBuildModel(repoRoot: string, config: Config): Promise<BuildModel> {
  const root = path.resolve(repoRoot);
  const problems: Problem[] = [];
  const cache = new MakefileCache(root);
  const entry = config.buildEntry;
  const tree = listRecipeTree(root, config.exclude);
  const other = readOtherRecipes(root, config.exclude, problems, tree);
  // A repository that builds from workflows (or another kind) need not have the default Makefile entry.
  const entryFile = entry.slice(0, entry.lastIndexOf(':') > 0 ? entry.lastIndexOf(':') : entry.length);
  const noEntryNeeded = entry === DEFAULT_BUILD_ENTRY && other.files.length > 0 && !existsSync(path.resolve(root, entryFile));
  const graph = noEntryNeeded ? { reached: new Map<string, string[]>() } : walkBuildGraph(root, entry, cache, problems);
  const makefiles = new Set(findMakefiles(root, config.exclude, tree));
  const reachedTargets = new Map<string, Set<string>>();
  for (const id of graph.reached.keys()) {
    const colon = id.lastIndexOf(':');
    const file = id.slice(0, colon);
    makefiles.add(file);
    if (!reachedTargets.has(file)) reachedTargets.set(file, new Set());
    reachedTargets.get(file)!.add(id.slice(colon + 1));
  }
  const producers: Producer[] = [];
  const recipes: BuildRecipe[] = [];
  for (const file of [...makefiles].sort()) {
    try {
      const reader = cache.get(path.join(root, file));
      const targets = new Set([...targetNames(reader.db), ...(reachedTargets.get(file) ?? [])]);
      const found = readMakefile(root, reader, [...targets], problems);
      producers.push(...found.producers);
      recipes.push(...found.recipes);
    } catch (e) {
      problems.push({ file, code: 'make-internal-error', reason: `could not read this Makefile (a pinwatch bug; please report it): ${e instanceof Error ? e.message : String(e)}` });
    }
  }
  for (const p of producers) {
    const via = graph.reached.get(p.id);
    p.built = via !== undefined;
    if (via) p.builtVia = via;
  }
  recipes.push(...other.recipes);
  for (const r of cache.all()) problems.push(...r.db.problems);
  producers.push(...declaredProducers(config.producers, config.origin.file ?? 'pinwatch.yaml'));
  return { entry, producers, recipes, problems: dedupe(problems), vendored: tree.vendored };
}

function readMakefile(root: string, reader: MakeReader, targets: string[], problems: Problem[]): { producers: Producer[]; recipes: BuildRecipe[] } {
  const all: TargetFacts[] = [];
  for (const target of targets) {
    const recipe = expandRecipe(reader, target);
    if (!recipe || recipe.commands.length === 0) continue;
    all.push({ makefile: reader.db.file, target, line: recipe.rule.line, facts: readCommands(recipe.commands, reader.db.dir) });
  }
  const resolved = all.map((t) => ({ t, ...producerFor(root, t, problems) }));
  const producers = resolved.flatMap((r) => (r.producer ? [r.producer] : []));
  const recipes = resolved.flatMap((r) => {
    if (r.t.facts.builds.length === 0) return [];
    const foreign = new Map<FoundWrite, PinWrite>();
    for (const other of resolved) if (other !== r) for (const [w, p] of other.writes) foreign.set(w, p);
    return recipesOfTarget(root, r.t, r.writes, foreign, problems);
  });
  return { producers, recipes };
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
