/**
 * Producers and build recipes of a repository: reads the Makefiles of the tree
 * that can matter (those the build entry reaches, and those that with their
 * includes spell a build or pin-write tool: relevance.ts), expands each target's
 * recipe, finds the pin writes and image builds in it (parsing only the command
 * lines that can hold one), and marks what the build entry point
 * (`Makefile:build`) reaches; adds the
 * recipes of the other kinds (workflows, bake, compose, goreleaser, Skaffold,
 * Cloud Build: kinds.ts) and follows the `make` calls they run; vendored trees
 * are not read (BuildModel.vendored lists them). The tree listing comes from
 * the scan's walk when the caller has it (BuildModelOptions.tree). Declared
 * producers from pinwatch.yaml are added as they are. Read in two halves a
 * snapshot keeps apart (RecipeFiles, MakeSide), joined by combineModel.
 */
import { existsSync } from '../util/tracked-fs.js';
import * as path from 'node:path';
import { DEFAULT_BUILD_ENTRY } from '../config/defaults.js';
import type { Config } from '../config/types.js';
import { expand, findRule, hasMarker, targetNames, type ExpandedCommand, type MakeFileSystem, type MakeReader } from '../make/index.js';
import { producerFor, recipesFor as recipesOfTarget, type TargetFacts } from './assemble.js';
import { EditedFiles } from './lines-query.js';
import { readCommands, type FoundWrite, type Retag } from './commands.js';
import type { MadeFile } from './made.js';
import { combineModel, entryFileOf, followInput, type FollowInput, type MakeSide, type RecipeFiles } from './combine.js';
import { expandRecipeOnce, findMakefiles, listRecipeTree, MakefileCache, type RecipeTree } from './discover.js';
import { subMakeNodes, walkBuildGraph, walkBuildGraphFrom, type BuildGraph } from './graph.js';
import { readOtherRecipes } from './kinds.js';
import { BUILD_OR_WRITE_WORDS, commandMayAct, MADE_WORDS, makefileMayAct, textReader } from './relevance.js';
import type { Problem } from '../model/index.js';
import { turns } from '../util/turns.js';
import type { BuildModel, BuildRecipe, FollowedMake, PinWrite, Producer } from './types.js';

export type { FollowInput, MakeSide, RecipeFiles } from './combine.js';

export interface BuildModelOptions {
  /** The tree listing (the scan's walk records it: ScanOptions.recipeTree); default: listed here. */
  tree?: RecipeTree;
}

export async function loadBuildModel(repoRoot: string, config: Config, options: BuildModelOptions = {}): Promise<BuildModel> {
  const root = path.resolve(repoRoot);
  const tree = options.tree ?? listRecipeTree(root, config.exclude);
  const files = readRecipeFiles(root, config, tree);
  return combineModel(config, tree.vendored, files, await readMakeSide(root, config, tree, followInput(config, files)));
}

/** The recipe files of the other kinds (kinds.ts), read from the listing. */
export function readRecipeFiles(root: string, config: Config, tree: RecipeTree): RecipeFiles {
  const problems: Problem[] = [];
  const other = readOtherRecipes(root, config.exclude, problems, tree, new Map(Object.entries(config.buildEnv ?? {})));
  return { ...other, problems };
}

export async function readMakeSide(repoRoot: string, config: Config, tree: RecipeTree, follow: FollowInput): Promise<MakeSide> {
  const root = path.resolve(repoRoot);
  const problems: Problem[] = [];
  const buildEnv = Object.entries(config.buildEnv ?? {});
  const cache = new MakefileCache(root, buildEnv.length > 0 ? Object.fromEntries(buildEnv) : undefined);
  const entry = config.buildEntry;
  const entryFile = entryFileOf(entry);
  // The `make` calls of the other kinds' recipes (workflow run:, Cloud Build steps), followed with the step's env and args.
  // What the walk cannot follow (a make in a directory another step checks out) is a note: the step is assumed to build no image here.
  const followProblems: Problem[] = [];
  const followed = walkBuildGraphFrom(root, follow.makes.flatMap((m) => followedNodes(root, m, followProblems, cache.fs)), cache, followProblems);
  for (const p of followProblems) problems.push({ ...p, code: 'followed-make-assumed', reason: `${p.reason}; this make call is not followed (assumed to build no image of this tree)` });
  let graph: BuildGraph;
  if (entry === 'none') graph = { reached: new Map(), readers: new Map() };
  else if (follow.entryIsRecipeFile) {
    // A recipe file of another kind as the entry: the build is what its make calls reach.
    graph = walkBuildGraphFrom(root, follow.makes.filter((m) => m.make.source.file === entryFile).flatMap((m) => followedNodes(root, m, [], cache.fs)), cache, []);
  } else if (entry === DEFAULT_BUILD_ENTRY && !existsSync(path.resolve(root, entryFile))) {
    // A repository with no Makefile is built some other way (workflows, Skaffold, ko…): no entry to walk, and no problem.
    graph = { reached: new Map(), readers: new Map() };
  } else {
    const walked: Problem[] = [];
    graph = walkBuildGraph(root, entry, cache, walked);
    for (const p of walked) {
      // the default entry, where the Makefile has no `build` (tektoncd/pipeline): an assumption that did not hold, not a broken recipe
      const defaultMissing = entry === DEFAULT_BUILD_ENTRY && p.code === 'build-target-missing' && p.file === entryFile && p.reason.endsWith(`(reached via ${entry})`);
      problems.push(defaultMissing ? { file: p.file, code: 'build-entry-assumed', reason: `${entryFile} has no target "build", the default buildEntry: no build entry is walked (recipes are still read from every Makefile and workflow); set buildEntry in pinwatch.yaml to the target or recipe file your release builds with, or none` } : p);
    }
  }
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
  const retags: Retag[] = [];
  const fs = cache.fs;
  const textOf = textReader(fs);
  const edited = new EditedFiles();
  const turn = turns();
  for (const file of [...makefiles].sort()) {
    // the model is read synchronously: turns of the event loop let git processes started beside it
    // (stale's pin-file blobs) deliver their output instead of stalling on a full pipe
    await turn();
    // A Makefile the build does not reach, spelling no build or pin-write tool (nor do its includes): nothing to find in it.
    if (!reachedTargets.has(file) && !makefileMayAct(path.join(root, file), path.dirname(path.join(root, file)), fs, textOf)) continue;
    try {
      const reader = cache.get(path.join(root, file));
      const targets = new Set([...targetNames(reader.db), ...(reachedTargets.get(file) ?? [])]);
      const found = readMakefile(root, reader, [...targets], problems, edited);
      producers.push(...found.producers);
      recipes.push(...found.recipes);
      retags.push(...found.retags);
    } catch (e) {
      problems.push({ file, code: 'make-internal-error', reason: `could not read this Makefile (a pinwatch bug; please report it): ${e instanceof Error ? e.message : String(e)}` });
    }
  }
  // targets the entry's walk reached under a sub-make's own variables or environment (`REGISTRY=$(STAGING) $(MAKE) images`): read so too
  // (graph.ts keys such a visit apart from its plain `Makefile:target` id)
  const underCall: BuildGraph = { reached: graph.reached, readers: new Map([...graph.readers].filter(([key, r]) => key !== r.id)) };
  const viaMake: BuildRecipe[] = [];
  for (const found of [followedReads(root, followed, cache, problems, edited), followedReads(root, underCall, cache, problems, edited)]) {
    viaMake.push(...found.recipes);
    producers.push(...newWrites(producers, found.producers));
    retags.push(...found.retags);
  }
  for (const p of producers) {
    const via = graph.reached.get(p.id);
    p.built = entry === 'none' || via !== undefined;
    if (via) p.builtVia = via;
  }
  for (const r of cache.all()) problems.push(...r.db.problems);
  return { producers, recipes, viaMake, problems, retags };
}

const exportedEnvs = new WeakMap<MakeReader, Map<string, string>>();

/**
 * The environment make gives its recipes: the exported variables (`export X ?= …`, and those make got from its own
 * environment), expanded; once per reader (a followed walk reads many targets of one reader).
 */
function exportedEnv(reader: MakeReader): Map<string, string> {
  const known = exportedEnvs.get(reader);
  if (known) return known;
  const env = new Map<string, string>();
  const vars = reader.db.vars;
  for (const name of vars.names()) {
    const v = vars.get(name);
    if (!v?.exported || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
    env.set(name, v.flavor === 'simple' ? v.value : expand(`$(${name})`, reader.context(vars, reader.db.file, 0)));
  }
  exportedEnvs.set(reader, env);
  return env;
}

/**
 * The producers and recipes of `targets` as `reader` expands them. `plain`: the Makefile read without a
 * call's variables, when `reader` is read under them (ReadCommandsOptions `plainLine`), read only if asked.
 */
function readMakefile(root: string, reader: MakeReader, targets: string[], problems: Problem[], edited: EditedFiles, plain?: () => MakeReader): { producers: Producer[]; recipes: BuildRecipe[]; retags: Retag[] } {
  const all: TargetFacts[] = [];
  const env = exportedEnv(reader);
  for (const target of targets) {
    const recipe = expandRecipeOnce(reader, target);
    // Make runs each line in a shell of its own: a line that names no build or write tool adds nothing, so it is not parsed.
    const acting = recipe?.commands.filter((c) => commandMayAct(c.text, BUILD_OR_WRITE_WORDS, env)) ?? [];
    if (!recipe || acting.length === 0) continue;
    // beside a build, the lines that make what it may read (`cp … ctx/`, `go build -o bin/x`: made.ts)
    const commands = recipe.commands.filter((c) => acting.includes(c) || commandMayAct(c.text, MADE_WORDS));
    const plainLine = plain ? plainLinesOf(reader, plain, target) : undefined;
    const facts = readCommands(commands, reader.db.dir, { ...(env.size ? { env } : {}), ...(plainLine ? { plainLine } : {}) });
    if (facts.builds.length > 0) {
      const before = madeByPrerequisites(reader, target, env);
      if (before.length > 0) facts.made = [...before, ...(facts.made ?? [])];
    }
    all.push({ makefile: reader.db.file, target, line: recipe.rule.line, facts });
  }
  const resolved = all.map((t) => ({ t, ...producerFor(root, t, problems, edited) }));
  const producers = resolved.flatMap((r) => (r.producer ? [r.producer] : []));
  const recipes = resolved.flatMap((r) => {
    if (r.t.facts.builds.length === 0) return [];
    const foreign = new Map<FoundWrite, PinWrite>();
    for (const other of resolved) if (other !== r) for (const [w, p] of other.writes) foreign.set(w, p);
    return recipesOfTarget(root, r.t, r.writes, foreign, problems);
  });
  return { producers, recipes, retags: all.flatMap((t) => t.facts.retags ?? []) };
}

/** A target's recipe lines as `plain()` expands them, by where each is written; read on the first question. */
function plainLinesOf(reader: MakeReader, plain: () => MakeReader, target: string): (c: ExpandedCommand) => string | undefined {
  let byLine: Map<string, string> | undefined;
  return (c) => {
    if (!byLine) {
      byLine = new Map();
      const other = plain();
      if (other !== reader) for (const p of expandRecipeOnce(other, target)?.commands ?? []) if (!byLine.has(`${p.file}:${p.line}`)) byLine.set(`${p.file}:${p.line}`, p.text);
    }
    return byLine.get(`${c.file}:${c.line}`);
  };
}

/**
 * What a target's prerequisites make before its recipe runs (`docker-buildx: build`, where `build:`
 * runs `go build -o bin/extension-server ./cmd/extension-server`), through a few levels: made.ts.
 */
function madeByPrerequisites(reader: MakeReader, target: string, env: Map<string, string>, depth = 0, seen = new Set<string>([target])): MadeFile[] {
  const recipe = expandRecipeOnce(reader, target);
  if (!recipe || depth >= MADE_DEPTH) return [];
  const out: MadeFile[] = [];
  for (const p of recipe.prerequisites) {
    if (seen.has(p) || !findRule(reader.db, p)) continue;
    seen.add(p);
    out.push(...madeByPrerequisites(reader, p, env, depth + 1, seen));
    const lines = expandRecipeOnce(reader, p)?.commands.filter((c) => commandMayAct(c.text, MADE_WORDS)) ?? [];
    if (lines.length > 0) out.push(...(readCommands(lines, reader.db.dir, env.size ? { env } : {}).made ?? []).map((m) => ({ ...m, order: -1 })));
  }
  return out;
}

const MADE_DEPTH = 4;

/**
 * The graph nodes a followed `make` call starts at, the step's env as make's environment (minus what the
 * runner sets and the tree cannot tell). A call with no env and no variables reads exactly as the plain
 * Makefile reading does, so it is not walked again.
 */
function followedNodes(root: string, m: FollowedMake, problems: Problem[], fs: MakeFileSystem) {
  const environment = Object.fromEntries([...m.env].filter(([k, v]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && !(/^(?:GITHUB|RUNNER)_/.test(k) && (hasMarker(v) || k === 'GITHUB_WORKSPACE'))));
  if (Object.keys(environment).length === 0 && Object.keys(m.make.variables).length === 0 && !m.make.env) return [];
  return subMakeNodes(root, m.make, [m.label], problems, fs, environment);
}

/**
 * Recipes and producers of the targets the followed make calls reach, each read with the variables and
 * environment it is run with (`$(MAKE) set-manifest-image MANIFEST_IMG=… TARGET_RESOURCE=core/…/patch.yaml`:
 * the file a `sed -i` writes is known only under the call).
 */
function followedReads(root: string, graph: BuildGraph, cache: MakefileCache, problems: Problem[], edited: EditedFiles): { recipes: BuildRecipe[]; producers: Producer[]; retags: Retag[] } {
  const recipes: BuildRecipe[] = [];
  const producers: Producer[] = [];
  const retags: Retag[] = [];
  for (const { id, reader, via } of graph.readers.values()) {
    const target = id.slice(id.lastIndexOf(':') + 1);
    const found = readMakefile(root, reader, [target], problems, edited, () => cache.plainOf(reader));
    for (const r of found.recipes) recipes.push({ ...r, target: `${r.target} (via ${via[0] ?? '?'})` });
    producers.push(...found.producers);
    retags.push(...found.retags);
  }
  return { recipes, producers, retags };
}

/**
 * The producers read under a call that write somewhere the producers of their target do not yet: a target
 * whose writes do not depend on the call's variables reads the same under it, and is one producer. Each one
 * kept stays its own producer (its writes' lockstep ids are its own: two calls stamp two refs), under the
 * target's plain id (one target is one producer to the rules that count them).
 */
function newWrites(known: readonly Producer[], found: readonly Producer[]): Producer[] {
  const placeOf = (w: PinWrite) => `${w.file}\0${w.keyPath ?? ''}\0${w.lines?.join(',') ?? ''}`;
  const seen = new Set(known.flatMap((p) => p.writes.map((w) => `${p.id}\0${placeOf(w)}`)));
  const out: Producer[] = [];
  for (const p of found) {
    const places = p.writes.map((w) => `${p.id}\0${placeOf(w)}`);
    if (places.every((k) => seen.has(k))) continue;
    for (const k of places) seen.add(k);
    out.push(p);
  }
  return out;
}
