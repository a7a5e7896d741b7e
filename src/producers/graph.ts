/**
 * The build graph from the entry point (`Makefile:build`): follows
 * prerequisites and sub-makes (`make -C DIR target`, `$(MAKE) -f FILE`, `cd DIR
 * && make`) and records, for every Makefile target it reaches, the path it was
 * reached by. Targets with no rule, and sub-makes into directories without a
 * Makefile, become problems.
 */
import { existsSync } from '../util/tracked-fs.js';
import * as path from 'node:path';
import { findRule, type MakeFileSystem, type MakeReader } from '../make/index.js';
import { readCommands } from './commands.js';
import { defaultMakefileIn, expandRecipeOnce, type MakefileCache } from './discover.js';
import { commandMayAct, SUB_MAKE_WORDS } from './relevance.js';
import type { Problem } from '../model/index.js';
import { rootRelative } from './assemble.js';

export interface BuildGraph {
  /** `Makefile:target` → the node ids from the entry to it (inclusive). */
  reached: Map<string, string[]>;
  /**
   * Each target expanded, with the reader (the Makefile read with its variables and environment) it was
   * expanded with. In a walk from CI steps there is one entry per distinct variables and environment, so a
   * target two steps run with different env is read twice; `id` is the `Makefile:target`.
   */
  readers: Map<string, { id: string; reader: MakeReader; via: string[] }>;
}

/** Where a walk starts or goes: a Makefile run in a directory with variables (and an environment, from a CI step). */
export interface GraphNode {
  makefile: string;
  dir: string;
  variables: Record<string, string>;
  environment?: Record<string, string>;
  target?: string;
  via: string[];
}
type Node = GraphNode;

const MAX_NODES = 5000;

export function walkBuildGraph(root: string, entry: string, cache: MakefileCache, problems: Problem[]): BuildGraph {
  const colon = entry.lastIndexOf(':');
  const entryFile = colon > 0 ? entry.slice(0, colon) : entry;
  const entryTarget = colon > 0 ? entry.slice(colon + 1) : undefined;
  const abs = path.resolve(root, entryFile);
  if (!existsSync(abs)) {
    problems.push({ file: entryFile, code: 'build-entry-missing', reason: `build entry "${entry}" names a file that does not exist; set buildEntry in pinwatch.yaml to FILE:TARGET, another recipe file, or none` });
    return { reached: new Map(), readers: new Map() };
  }
  return walkBuildGraphFrom(root, [{ makefile: abs, dir: path.dirname(abs), variables: {}, ...(entryTarget ? { target: entryTarget } : {}), via: [] }], cache, problems);
}

/** The walk from given starting nodes (the `make` calls of a workflow or Cloud Build entry, or the entry Makefile). */
export function walkBuildGraphFrom(root: string, starts: GraphNode[], cache: MakefileCache, problems: Problem[]): BuildGraph {
  const reached = new Map<string, string[]>();
  const readers = new Map<string, { id: string; reader: MakeReader; via: string[] }>();
  const queue: Node[] = [...starts];
  while (queue.length > 0 && readers.size < MAX_NODES) {
    const node = queue.shift()!;
    try {
      visit(node);
    } catch (e) {
      problems.push({ file: path.relative(root, node.makefile), code: 'make-internal-error', reason: `could not follow the build into this Makefile (a pinwatch bug; please report it): ${e instanceof Error ? e.message : String(e)}` });
    }
  }
  return { reached, readers };

  function visit(node: Node): void {
    const reader = cache.get(node.makefile, node.dir, node.variables, node.environment);
    const target = node.target ?? reader.db.defaultGoal;
    const rel = reader.db.file;
    if (!target) {
      problems.push({ file: rel, code: 'build-no-default-goal', reason: `"${rel}" is run without a target and has no default goal` });
      return;
    }
    const id = `${rel}:${target}`;
    // A target is read once per distinct variables and environment it is reached with (a sub-make's `VAR=x` or `REGISTRY=x $(MAKE)`, a CI step's env).
    const visitKey = node.environment || Object.keys(node.variables).length > 0 ? `${id}\0${JSON.stringify([node.variables, node.environment ?? {}])}` : id;
    if (readers.has(visitKey)) return;
    const via = [...node.via, id];
    const recipe = expandRecipeOnce(reader, target);
    if (!recipe) {
      if (!existsSync(path.resolve(node.dir, target))) {
        problems.push({ file: rel, code: 'build-target-missing', reason: `no rule to make target "${target}" (reached via ${via.join(' → ')})` });
      }
      return;
    }
    if (!reached.has(id)) reached.set(id, via);
    readers.set(visitKey, { id, reader, via });
    for (const p of recipe.prerequisites) {
      if (findRule(reader.db, p)) queue.push({ ...node, target: p, via });
    }
    // Only a line that can run make can add a sub-make (each recipe line runs in a shell of its own).
    for (const sub of readCommands(recipe.commands.filter((c) => commandMayAct(c.text, SUB_MAKE_WORDS)), reader.db.dir).makes) {
      // make hands its command-line variables to sub-makes (MAKEFLAGS); the sub-make's own win, and its goals are its own
      const { MAKECMDGOALS: _goals, ...passed } = node.variables;
      queue.push(...subMakeNodes(root, Object.keys(passed).length > 0 ? { ...sub, variables: { ...passed, ...sub.variables } } : sub, via, problems, cache.fs, node.environment));
    }
  }
}

/** The nodes a `make …` call reaches (its targets, or the default goal); `environment` is inherited from the caller, the call's own prefix assignments over it. */
export function subMakeNodes(root: string, sub: ReturnType<typeof readCommands>['makes'][number], via: string[], problems: Problem[], fs: MakeFileSystem, environment?: Record<string, string>): Node[] {
  const makefile = sub.file ?? defaultMakefileIn(sub.dir, existsSync);
  if (!makefile || !existsSync(makefile)) {
    problems.push({ file: sub.source.file, line: sub.source.line, code: 'build-makefile-missing', reason: `sub-make runs in "${rootRelative(root, sub.dir, sub.fromSlash)}" but no Makefile is there` });
    return [];
  }
  const env = sub.env ? { ...environment, ...sub.env } : environment;
  // make sets MAKECMDGOALS to the goals it was given: set only for a Makefile whose own text names it (read once per goal
  // list then), one that forwards its goals (gateway's `$(MAKECMDGOALS): %: _run`); the text is the cache's, read once
  const variables = sub.targets.length > 0 && fs.readFile(makefile)?.includes('MAKECMDGOALS') ? { ...sub.variables, MAKECMDGOALS: sub.targets.join(' ') } : sub.variables;
  const base = { makefile, dir: sub.dir, variables, ...(env ? { environment: env } : {}), via };
  if (sub.targets.length === 0) return [base];
  return sub.targets.map((target) => ({ ...base, target }));
}
