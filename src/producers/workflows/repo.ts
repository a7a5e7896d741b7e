/**
 * The GitHub Actions recipe kind at repository level: the workflow files
 * GitHub runs (`.github/workflows/*.yml|*.yaml`, not subdirectories), minus the
 * config's exclude globs, each read for the images it builds. A reusable
 * workflow (`on: workflow_call`) that another workflow here calls is read once
 * per caller, with the caller's `with:` inputs, instead of on its own. The
 * github context's `repository` and `repository_owner` come from buildEnv
 * GITHUB_REPOSITORY, else from a github.com `origin` remote in .git/config.
 */
import { contentQuery, readdirSync, readFileSync, statSync } from '../../util/tracked-fs.js';
import { githubOriginOf, ORIGIN_QUERY, originAnswer } from './origin-query.js';
import * as path from 'node:path';
import { parseYamlValue } from '../../collect/index.js';
import { findWorkflows } from '../finders.js';
import type { Problem } from '../../model/index.js';
import type { BuildRecipe, RecipeReadOptions } from '../types.js';
import { readWorkflow, type WorkflowAssemble, type WorkflowReadOptions } from './reader.js';
import { recipeOfBuild, recipesOfBuild, type RecipeOrigin } from '../assemble.js';
import type { FoundBuild } from '../build-command.js';
import type { FollowedMake, PinWrite } from '../types.js';
import { cacheFor, sha256Hex, type Cache } from '../../cache/index.js';
import { isDeepStrictEqual } from 'node:util';
import { deserialize, serialize } from 'node:v8';

function readText(abs: string): string | undefined {
  try {
    return statSync(abs).isFile() ? readFileSync(abs, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** `owner/name` of a github.com `origin` remote, read from the repository's git config (no git process). */
export function githubRepositoryFromRemote(root: string): string | undefined {
  let gitDir = path.join(root, '.git');
  const dotGit = readText(gitDir);
  if (dotGit !== undefined) {
    const m = /^gitdir:\s*(.+)$/m.exec(dotGit);
    if (!m) return undefined;
    gitDir = path.resolve(root, m[1]!.trim());
    const common = readText(path.join(gitDir, 'commondir'));
    if (common !== undefined) gitDir = path.resolve(gitDir, common.trim());
  }
  // a content question: a snapshot keeps the origin, not the file's hash (origin-query.ts)
  const file = path.join(gitDir, 'config');
  return contentQuery(file, ORIGIN_QUERY, '', () => {
    const config = readText(file);
    return config === undefined ? undefined : githubOriginOf(config);
  }, originAnswer);
}

/** The github context known before a run: from buildEnv, else the remote. */
function githubContext(root: string, env: ReadonlyMap<string, string>): Map<string, string> | undefined {
  const repository = env.get('GITHUB_REPOSITORY') ?? githubRepositoryFromRemote(root);
  if (!repository) return undefined;
  const owner = env.get('GITHUB_REPOSITORY_OWNER') ?? repository.split('/')[0]!;
  return new Map([
    ['repository', repository],
    ['repository_owner', owner],
  ]);
}

/** Workflows another workflow in the tree calls (`uses: ./.github/workflows/x.yaml`), repo-relative. */
function calledWorkflows(root: string): Set<string> {
  const out = new Set<string>();
  for (const f of findWorkflows(root, [])) {
    const text = readText(path.join(root, f)) ?? '';
    for (const m of text.matchAll(/uses:\s*["']?\.\/(\.github\/workflows\/[^\s"'@]+)/g)) if (m[1] !== f) out.add(m[1]!);
  }
  return out;
}

/** True when the workflow's only trigger is `workflow_call` (kept in the cache by the text's hash). */
function onlyCalled(text: string, cache: Cache): boolean {
  if (!text.includes('workflow_call')) return false;
  const key = sha256Hex(text);
  const kept = cache.getJson<boolean>(ONLY_CALLED_CACHE_NS, key);
  if (kept !== undefined) return kept;
  const answer = onlyCalledParse(text);
  cache.putJson(ONLY_CALLED_CACHE_NS, key, answer);
  return answer;
}

function onlyCalledParse(text: string): boolean {
  let on: unknown;
  try {
    const top = parseYamlValue(text, { uniqueKeys: false }) as Record<string, unknown> | null;
    on = top && typeof top === 'object' ? (top.on ?? top.true) : undefined;
  } catch {
    return false;
  }
  const triggers = typeof on === 'string' ? [on] : Array.isArray(on) ? on.map(String) : on && typeof on === 'object' ? Object.keys(on) : [];
  return triggers.length === 1 && triggers[0] === 'workflow_call';
}

export function readWorkflowFile(root: string, file: string, problems: Problem[], options: RecipeReadOptions = {}): BuildRecipe[] {
  const text = readText(path.join(root, file));
  if (text === undefined) {
    problems.push({ file, code: 'workflow-unreadable', reason: 'cannot read this workflow' });
    return [];
  }
  const cache = cacheFor(root);
  // A reusable workflow that a workflow here calls is read for each caller, with its inputs.
  if (onlyCalled(text, cache) && calledWorkflows(root).has(file)) return [];
  const env = options.env ?? new Map<string, string>();
  const needsGithub = /github\.repository|GITHUB_REPOSITORY/.test(text) || /uses:\s*["']?\.\//.test(text);
  const github = needsGithub ? githubContext(root, env) : undefined;
  const readCalled = (f: string) => readText(path.join(root, f));
  const read: WorkflowReadOptions = { ...options, ...(github ? { github } : {}), readCalled };
  if (!cache.enabled) return readWorkflow(root, file, text, problems, read);
  return readWorkflowKept(cache, root, file, text, problems, read, JSON.stringify([path.resolve(root), file, sha256Hex(text), [...env], github ? [...github] : null]));
}

// ---- the cache of workflow reads ----

export const WORKFLOW_CACHE_NS = 'workflow';
const ONLY_CALLED_CACHE_NS = 'workflow-called';

/**
 * One call of a tree-checking step (assemble.ts) while reading: its arguments (the origin's `why`
 * as the answers it gave), and what it returned and reported, as V8-serialized bytes.
 */
interface KeptStep {
  fn: keyof WorkflowAssemble;
  args: Uint8Array;
  /** The origin's `why` (absent: it had none), as the answers it gave. */
  why?: [string, string | undefined][];
  out: Uint8Array;
}

/** A workflow read: its recipes, problems and make calls, the called workflows' texts by hash, and each tree-checking step. */
interface KeptWorkflow {
  recipes: BuildRecipe[];
  problems: Problem[];
  makes: FollowedMake[];
  called: [string, string | null][];
  steps: KeptStep[];
}

const hashOf = (text: string | undefined) => (text === undefined ? null : sha256Hex(text));

/** Thrown by a replayed `why` asked a text the recorded run did not ask: the read would differ. */
class Unrecorded extends Error {}

/**
 * Reading a workflow is pure but for the texts of the workflows it calls and the two steps that check
 * builds against the tree (recipeOfBuild, recipesOfBuild). A kept read is used when the called texts
 * are the same and every step, run again with the same arguments, returns and reports exactly what it
 * did: then the rest of the read would do the same, and its YAML parse is what is saved.
 */
function readWorkflowKept(cache: Cache, root: string, file: string, text: string, problems: Problem[], options: WorkflowReadOptions, key: string): BuildRecipe[] {
  const kept = cache.getValue<KeptWorkflow>(WORKFLOW_CACHE_NS, key);
  if (kept && stillHolds(kept, root, options)) {
    problems.push(...kept.problems);
    options.makes?.push(...kept.makes);
    return kept.recipes;
  }
  const steps: KeptStep[] = [];
  const called: [string, string | null][] = [];
  const record =
    <F extends keyof WorkflowAssemble>(fn: F): WorkflowAssemble[F] =>
    ((r: string, origin: RecipeOrigin, b: FoundBuild, stamps: PinWrite[], out: Problem[]) => {
      const { why, ...plain } = origin;
      const args = serialize({ origin: plain, b, stamps });
      const answers = new Map<string, string | undefined>();
      const recorded: RecipeOrigin = { ...plain, ...(why ? { why: (t: string) => (answers.has(t) ? answers.get(t) : (answers.set(t, why(t)), answers.get(t))) } : {}) };
      const pushed: Problem[] = [];
      const result = (fn === 'recipeOfBuild' ? recipeOfBuild : recipesOfBuild)(r, recorded, b, stamps, pushed);
      out.push(...pushed);
      steps.push({ fn, args, ...(why ? { why: [...answers] } : {}), out: serialize({ result, pushed }) });
      return result;
    }) as WorkflowAssemble[F];
  const mine: Problem[] = [];
  const makes: FollowedMake[] = [];
  let recipes: BuildRecipe[];
  try {
    recipes = readWorkflow(root, file, text, mine, {
      ...options,
      makes,
      readCalled: (f) => {
        const t = options.readCalled?.(f);
        called.push([f, hashOf(t)]);
        return t;
      },
      assemble: { recipeOfBuild: record('recipeOfBuild'), recipesOfBuild: record('recipesOfBuild') },
    });
  } finally {
    // what was reported before a crash is reported as without the cache
    problems.push(...mine);
    options.makes?.push(...makes);
  }
  cache.putValue(WORKFLOW_CACHE_NS, key, { recipes, problems: mine, makes, called, steps } satisfies KeptWorkflow);
  return recipes;
}

function stillHolds(kept: KeptWorkflow, root: string, options: WorkflowReadOptions): boolean {
  if (!kept.called.every(([f, h]) => hashOf(options.readCalled?.(f)) === h)) return false;
  try {
    return kept.steps.every((step) => {
      const { origin, b, stamps } = deserialize(step.args) as { origin: Omit<RecipeOrigin, 'why'>; b: FoundBuild; stamps: PinWrite[] };
      const answers = new Map(step.why ?? []);
      const why = (t: string) => {
        if (!answers.has(t)) throw new Unrecorded(t);
        return answers.get(t);
      };
      const replayed: RecipeOrigin = { ...origin, ...(step.why ? { why } : {}) };
      const pushed: Problem[] = [];
      const result = (step.fn === 'recipeOfBuild' ? recipeOfBuild : recipesOfBuild)(root, replayed, b, stamps, pushed);
      // structural equality (V8's bytes of equal strings may differ: one- or two-byte storage)
      return isDeepStrictEqual({ result, pushed }, deserialize(step.out));
    });
  } catch (e) {
    if (e instanceof Unrecorded) return false;
    throw e;
  }
}
