/**
 * The GitHub Actions recipe reader: every image a workflow builds, as a
 * BuildRecipe. Reads `docker/build-push-action` steps (`with: context, file,
 * tags, target, build-args, platforms`) and `run:` steps that call `docker
 * build` / `docker buildx build` (through the shared build-command parser),
 * once per `strategy.matrix` combination, with `${{ matrix.* }}` and
 * `${{ env.* }}` (workflow < job < step) evaluated. What cannot be evaluated is
 * a problem with file:line and the reason; a tag whose name stays unknown names
 * no repository (an unknown version after the name does not matter).
 */
import * as path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, type Node, type Pair, type Scalar, type YAMLMap } from 'yaml';
import { parseYamlDocument } from '../../collect/index.js';
import { hasMarker, marker, readableMarkers, type ExpandedCommand } from '../../make/index.js';
import { recipeOfBuild, recipesOfBuild, type RecipeOrigin } from '../assemble.js';
import type { FoundBuild } from '../build-command.js';
import { readCommands } from '../commands.js';
import { scriptLinesMayAct } from '../relevance.js';
import type { Problem } from '../../model/index.js';
import type { BuildRecipe, RecipeReadOptions } from '../types.js';
import { interpolate, textOf, type Evaluated, type Scope, type Unknown, type Value } from './expressions.js';
import { expandMatrix } from './matrix.js';

/** Variables the runner sets for every step: unknown in the repository, except the workspace (the checkout, the repository root). */
const RUNNER_ENV = ['GITHUB_SHA', 'GITHUB_REF', 'GITHUB_REF_NAME', 'GITHUB_REF_TYPE', 'GITHUB_HEAD_REF', 'GITHUB_BASE_REF', 'GITHUB_REPOSITORY', 'GITHUB_REPOSITORY_OWNER', 'GITHUB_ACTOR', 'GITHUB_RUN_ID', 'GITHUB_RUN_NUMBER', 'GITHUB_EVENT_NAME', 'GITHUB_SERVER_URL', 'RUNNER_TEMP', 'RUNNER_OS', 'RUNNER_ARCH'];

/** How a workflow is read: the recipe options, the known github context, and for a called (reusable) workflow its caller. */
export interface WorkflowReadOptions extends RecipeReadOptions {
  github?: ReadonlyMap<string, string>;
  /** Set when read for one caller (`uses: ./.github/workflows/x.yaml`): its `with:` inputs and a label prefix. */
  call?: { inputs: Map<string, Evaluated>; via: string };
  /** Reads a called workflow's text (repo-relative path), for reusable workflows. */
  readCalled?: (file: string) => string | undefined;
  /** How builds become recipes (checked against the tree): the assemble.ts functions unless given (the cache records them). */
  assemble?: WorkflowAssemble;
  /** How many composite actions deep the steps being read are (readAction; absent: a workflow's own steps). */
  actionDepth?: number;
}

/** The two tree-checking steps of reading a workflow, as a seam (see workflows/repo.ts, which caches the rest). */
export interface WorkflowAssemble {
  recipeOfBuild: typeof recipeOfBuild;
  recipesOfBuild: typeof recipesOfBuild;
}

interface Ctx {
  root: string;
  file: string;
  lc: LineCounter;
  problems: Problem[];
  options: WorkflowReadOptions;
}

/** Recipes of one workflow file (`file` repo-relative, `text` its content). */
export function readWorkflow(root: string, file: string, text: string, problems: Problem[], options: WorkflowReadOptions = {}): BuildRecipe[] {
  const lc = new LineCounter();
  const doc = parseYamlDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    problems.push({ file, line: lc.linePos(e.pos[0]).line, code: 'workflow-yaml-error', reason: `not valid YAML, so its builds are not read: ${e.message.split('\n')[0]}` });
    return [];
  }
  const ctx: Ctx = { root, file, lc, problems, options };
  const top = doc.contents;
  if (!isMap(top)) {
    if (top) problems.push({ file, line: lineOf(ctx, top), code: 'workflow-unreadable', reason: 'a workflow is a mapping with jobs:; this file is not, so its builds are not read' });
    return [];
  }
  const jobs = top.get('jobs', true);
  if (!isMap(jobs)) {
    problems.push({ file, line: lineOf(ctx, (jobs as Node | undefined) ?? top), code: 'workflow-unreadable', reason: 'no jobs: mapping, so no builds are read' });
    return [];
  }
  if (options.call) options.call.inputs = new Map([...callInputDefaults(top), ...options.call.inputs]);
  const workflowEnv = readEnv(ctx, top.get('env', true), new Map(), undefined);
  const workflowDir = workingDirectory(top);
  const recipes: BuildRecipe[] = [];
  for (const pair of jobs.items) {
    const jobId = isScalar(pair.key) ? String(pair.key.value) : '?';
    if (!isMap(pair.value)) continue;
    recipes.push(...readJob(ctx, jobId, pair.value, workflowEnv, workflowDir));
  }
  return recipes;
}

function readJob(ctx: Ctx, jobId: string, job: YAMLMap, workflowEnv: Map<string, Evaluated>, workflowDir: Node | undefined): BuildRecipe[] {
  const steps = job.get('steps', true);
  const usesNode = job.get('uses', true);
  if (!isSeq(steps) && !isScalar(usesNode)) return [];
  const strategy = job.get('strategy', true);
  const matrixNode = isMap(strategy) ? (strategy.get('matrix', true) as Node | undefined) : undefined;
  const matrix = expandMatrix(matrixNode ? (matrixNode.toJSON() as Value) : undefined);
  // every key any combination has: one only other combinations have is null in this one (expressions.ts)
  const keys = matrix?.known ? new Set(matrix.combinations.flatMap((c) => Object.keys(c))) : undefined;
  const scopes: { matrix?: Scope['matrix']; label: string }[] = !matrix
    ? [{ label: '' }]
    : !matrix.known
      ? [{ matrix: { known: false, reason: matrix.reason }, label: '' }]
      : matrix.combinations.map((values) => ({ matrix: { known: true, values, ...(keys ? { keys } : {}) }, label: comboLabel(values) }));
  if (matrix && matrix.known && matrix.combinations.length === 0) {
    ctx.problems.push({ file: ctx.file, line: lineOf(ctx, matrixNode!), code: 'workflow-matrix-empty', reason: `the matrix of jobs.${jobId} has no combination, so the job never runs` });
  }
  const dir = workingDirectory(job) ?? workflowDir;
  const out: BuildRecipe[] = [];
  const seen = new Set<string>();
  if (isScalar(usesNode)) {
    for (const s of scopes) out.push(...readCall(ctx, jobId, job, usesNode, { env: workflowEnv, ...(s.matrix ? { matrix: s.matrix } : {}), ...scopeExtras(ctx) }, s.label));
    return out;
  }
  if (!isSeq(steps)) return out;
  for (const s of scopes) {
    const jobEnv = readEnv(ctx, job.get('env', true), workflowEnv, s.matrix);
    const outputs = new Map<string, string>();
    const outputUnknowns: Unknown[] = [];
    steps.items.forEach((step, index) => {
      if (!isMap(step)) return;
      const stepEnv = readEnv(ctx, step.get('env', true), jobEnv, s.matrix);
      const scope: Scope = { env: stepEnv, ...(s.matrix ? { matrix: s.matrix } : {}), outputs, ...scopeExtras(ctx) };
      const nameNode = step.get('name', true);
      const stepName = isScalar(nameNode) ? ` "${readableMarkers(interpolate(String(nameNode.value), scope).text)}"` : '';
      const name = `${ctx.options.call ? `${ctx.options.call.via} → ` : ''}jobs.${jobId} step ${index + 1}${stepName}${s.label}`;
      const found = readStep(ctx, step, scope, name, dir, outputs, outputUnknowns);
      for (const r of found) {
        const key = JSON.stringify([r.line, r.dockerfile, r.context, r.stage, r.repositories, r.command]);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(r);
      }
    });
  }
  return out;
}

/**
 * One step's builds: `docker/build-push-action`, a `run:` script, a composite action of this repository
 * (`uses: ./…`); a `docker/metadata-action` or a script writing $GITHUB_OUTPUT adds to `outputs`.
 */
function readStep(ctx: Ctx, step: YAMLMap, scope: Scope, name: string, dir: Node | undefined, outputs: Map<string, string>, outputUnknowns: Unknown[]): BuildRecipe[] {
  const uses = step.get('uses', true);
  const run = step.get('run', true);
  const id = step.get('id');
  if (isScalar(uses) && /^docker\/metadata-action@/.test(String(uses.value)) && typeof id === 'string') {
    const images = metadataImages(step, scope, outputUnknowns);
    const tag = marker('expr', `steps.${id}.outputs.tags`);
    if (images.length) {
      outputUnknowns.push({ expr: `steps.${id}.outputs.tags`, reason: 'the tags docker/metadata-action computes are known only when the workflow runs', marker: tag });
      outputs.set(`${id}.tags`, images.map((i) => `${i}:${tag}`).join('\n'));
    }
  }
  if (isScalar(uses) && /^docker\/build-push-action@/.test(String(uses.value))) return readBuildPush(ctx, step, uses, scope, name, outputUnknowns);
  if (isScalar(uses) && String(uses.value).startsWith('./')) return readAction(ctx, step, uses, scope, name);
  if (!isScalar(run)) return [];
  const written = new Map<string, string>();
  const found = readRun(ctx, step, run, scope, name, dir, outputUnknowns, written);
  if (typeof id === 'string') for (const [k, v] of written) outputs.set(`${id}.${k}`, stepOutputValue(v, `steps.${id}.outputs.${k}`, outputUnknowns));
  return found;
}

/** The `with:` of a step or job, each value evaluated in `scope` (a value only the run knows is unknown, with why). */
function withInputs(node: unknown, scope: Scope): Map<string, Evaluated> {
  const inputs = new Map<string, Evaluated>();
  if (!isMap(node)) return inputs;
  for (const pair of node.items) {
    if (!isScalar(pair.key) || !isScalar(pair.value)) continue;
    const raw = pair.value.value;
    if (typeof raw !== 'string') {
      inputs.set(String(pair.key.value), { known: true, value: raw as Value });
      continue;
    }
    inputs.set(String(pair.key.value), interpolated(raw, scope));
  }
  return inputs;
}

/** Composite actions followed inside one another, at most. */
const MAX_ACTION_DEPTH = 3;

/**
 * A step that runs a composite action of this repository (`uses: ./.github/actions/publish`, katib's
 * `template-publish-image`): its `action.yml` read for this step, its `inputs.*` the `with:` values (over
 * the action's defaults), its `runs.steps` read as this job's steps are, in the caller step's env; the
 * actions those run, likewise, MAX_ACTION_DEPTH deep. A JavaScript or Docker action builds no image here;
 * one deeper, or one the tree lacks (another step checks it out), is a note: assumed to build no image.
 */
function readAction(ctx: Ctx, step: YAMLMap, uses: Scalar, scope: Scope, name: string): BuildRecipe[] {
  const line = lineOf(ctx, uses);
  const target = String(uses.value).slice(2).split('@')[0]!.replace(/\/+$/, '');
  const depth = ctx.options.actionDepth ?? 0;
  if (depth >= MAX_ACTION_DEPTH) {
    ctx.problems.push({ file: ctx.file, line, code: 'workflow-action-assumed', reason: `${name} runs ./${target}, a composite action ${depth + 1} levels deep, which is not followed (assumed to build no image of this tree)` });
    return [];
  }
  let file: string | undefined;
  let text: string | undefined;
  for (const f of [`${target}/action.yml`, `${target}/action.yaml`]) {
    text = ctx.options.readCalled?.(f);
    if (text !== undefined) {
      file = f;
      break;
    }
  }
  if (file === undefined || text === undefined) {
    ctx.problems.push({ file: ctx.file, line, code: 'workflow-action-assumed', reason: `${name} uses ./${target}, which has no action.yml or action.yaml in the tree (another step may check it out): what it runs is not read (assumed to build no image of this tree)` });
    return [];
  }
  const lc = new LineCounter();
  const doc = parseYamlDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: false });
  if (doc.errors.length > 0) {
    ctx.problems.push({ file, line: lc.linePos(doc.errors[0]!.pos[0]).line, code: 'workflow-yaml-error', reason: `not valid YAML, so the steps of the action ${name} runs are not read: ${doc.errors[0]!.message.split('\n')[0]}` });
    return [];
  }
  const top = doc.contents;
  const runs = isMap(top) ? top.get('runs', true) : undefined;
  const steps = isMap(runs) && runs.get('using') === 'composite' ? runs.get('steps', true) : undefined;
  if (!isMap(top) || !isSeq(steps)) return [];
  // the action's input defaults, then the step's `with:` over them
  const inputs = new Map<string, Evaluated>();
  const declared = top.get('inputs', true);
  if (isMap(declared)) {
    for (const pair of declared.items) {
      const d = isScalar(pair.key) && isMap(pair.value) ? pair.value.get('default', true) : undefined;
      // a default sees the github context, not the caller's env or inputs
      if (isScalar(d) && d.value !== null && d.value !== undefined) inputs.set(String((pair.key as Scalar).value), typeof d.value === 'string' ? interpolated(d.value, { env: new Map(), ...(ctx.options.github ? { github: ctx.options.github } : {}) }) : { known: true, value: d.value as Value });
    }
  }
  for (const [k, v] of withInputs(step.get('with', true), scope)) inputs.set(k, v);
  const via = `${ctx.file}:${line} ${name}`;
  const sub: Ctx = { root: ctx.root, file, lc, problems: ctx.problems, options: { ...ctx.options, call: { inputs, via }, actionDepth: depth + 1 } };
  const outputs = new Map<string, string>();
  const unknowns: Unknown[] = [];
  const out: BuildRecipe[] = [];
  steps.items.forEach((inner, index) => {
    if (!isMap(inner)) return;
    const env = readEnv(sub, inner.get('env', true), scope.env, undefined);
    const innerScope: Scope = { env, outputs, ...scopeExtras(sub) };
    const nameNode = inner.get('name', true);
    const stepName = isScalar(nameNode) ? ` "${readableMarkers(interpolate(String(nameNode.value), innerScope).text)}"` : '';
    out.push(...readStep(sub, inner, innerScope, `${via} → ${file} runs.steps ${index + 1}${stepName}`, undefined, outputs, unknowns));
  });
  return out;
}

/** A text with `${{ … }}` expressions, interpolated in `scope`: known, or unknown with why. */
function interpolated(raw: string, scope: Scope): Evaluated {
  return evaluatedOf(interpolate(raw, scope));
}

/** An interpolation's result as a value: known, or unknown with the reasons of what it could not evaluate. */
function evaluatedOf(r: { text: string; unknowns: Unknown[] }): Evaluated {
  return r.unknowns.length === 0 ? { known: true, value: r.text } : { known: false, reason: [...new Set(r.unknowns.map((u) => `${u.expr}: ${u.reason}`))].join('; ') };
}

/** `docker/build-push-action`: its inputs as the `docker buildx build` it runs. */
function readBuildPush(ctx: Ctx, step: YAMLMap, uses: Scalar, scope: Scope, name: string, inherited: Unknown[]): BuildRecipe[] {
  const line = lineOf(ctx, uses);
  const withNode = step.get('with', true);
  const inputs = isMap(withNode) ? withNode : undefined;
  const unknowns: Unknown[] = [...inherited];
  const input = (key: string): { value: string; line: number }[] | undefined => {
    const node = inputs?.get(key, true);
    if (node === undefined || node === null) return undefined;
    if (!isScalar(node)) {
      ctx.problems.push({ file: ctx.file, line: lineOf(ctx, node as Node), code: 'workflow-input-unreadable', reason: `with.${key} of docker/build-push-action is not a string` });
      return undefined;
    }
    return scalarLines(ctx, node).map((l) => {
      const r = interpolate(l.text, scope);
      unknowns.push(...r.unknowns);
      return { value: r.text, line: l.line };
    });
  };
  const list = (key: string, commas: boolean) =>
    (input(key) ?? []).flatMap((l) => l.value.split(commas ? /[\n,]/ : '\n').map((v) => ({ value: v.trim(), line: l.line }))).filter((v) => v.value !== '');
  const one = (key: string) => {
    const v = input(key);
    return v === undefined ? undefined : { value: v.map((l) => l.value).join('\n').trim(), line: v[0]?.line ?? line };
  };
  const contextIn = one('context');
  const fileIn = one('file');
  const targetIn = one('target');
  const tags = list('tags', true);
  const buildArgs = list('build-args', false);
  const platforms = list('platforms', true);

  const why = whyOf(unknowns);
  const report = (what: string, value: { value: string; line: number } | undefined) => {
    if (value && hasMarker(value.value)) ctx.problems.push({ file: ctx.file, line: value.line, code: 'workflow-expression-unknown', reason: `${what} "${readableMarkers(value.value)}" cannot be evaluated: ${why(value.value)}` });
  };
  // a build arg known only at run time (`REVISION=${{ steps.prep.outputs.REVISION }}`) is no problem of the recipe:
  // the Dockerfile's ARG has no value then, which the image's inputs account for where it matters (sources/derive.ts)
  report('target', targetIn);
  for (const p of platforms) report('platform', p);

  // No context (or `{{defaultContext}}`): the Git context, the repository at the commit; `file` is then relative to it.
  let contextArg = contextIn?.value || '.';
  let gitContext = !contextIn?.value;
  const dc = /^\{\{\s*defaultContext\s*\}\}(?::(.*))?$/.exec(contextArg);
  if (dc) {
    contextArg = dc[1] || '.';
    gitContext = true;
  }
  const remote = /^[a-z]+:\/\//.test(contextArg) || contextArg.startsWith('git@');
  const contextAbs = remote || hasMarker(contextArg) ? '' : path.resolve(ctx.root, contextArg);
  const fileArg = fileIn?.value;
  const dockerfile = fileArg ? path.resolve(gitContext && contextAbs ? contextAbs : ctx.root, fileArg) : undefined;
  const argv = [
    'docker', 'buildx', 'build',
    ...(fileArg ? ['--file', fileArg] : []),
    ...(targetIn?.value ? ['--target', targetIn.value] : []),
    ...buildArgs.flatMap((a) => ['--build-arg', a.value]),
    ...(platforms.length ? ['--platform', platforms.map((p) => p.value).join(',')] : []),
    ...tags.flatMap((t) => ['--tag', t.value]),
    contextArg,
  ];
  const build: FoundBuild = {
    tool: 'docker/build-push-action',
    context: contextAbs,
    contextArg,
    ...(dockerfile ? { dockerfile } : {}),
    ...(targetIn?.value ? { stage: targetIn.value } : {}),
    tags: tags.map((t) => t.value),
    outputs: [],
    command: `${String(uses.value)}: ${argv.map(shellWord).join(' ')}`,
    source: { file: ctx.file, line },
    order: 0,
  };
  return [(ctx.options.assemble?.recipeOfBuild ?? recipeOfBuild)(ctx.root, origin(ctx, name, why), build, [], ctx.problems)];
}

/**
 * The images of a docker/metadata-action step (`images:` lines, comma lists, or
 * `name=…,enable=…` entries): its `tags` output is each with a tag known only at run time.
 */
function metadataImages(step: YAMLMap, scope: Scope, unknowns: Unknown[]): string[] {
  const withNode = step.get('with', true);
  const images = isMap(withNode) ? withNode.get('images', true) : undefined;
  if (!isScalar(images)) return [];
  const out: string[] = [];
  const r = interpolate(String(images.value ?? ''), scope);
  unknowns.push(...r.unknowns);
  for (const line of r.text.split('\n')) {
    if (/(^|,)\s*name=/.test(line)) {
      const attrs = Object.fromEntries(line.split(',').map((a) => a.trim().split('=') as [string, string?]).map(([k, ...v]) => [k, v.join('=')]));
      if (attrs.name && attrs.enable !== 'false') out.push(attrs.name);
    } else out.push(...line.split(',').map((x) => x.trim()).filter(Boolean));
  }
  return out;
}

let runnerMarkerList: [string, string][] | undefined;
/** RUNNER_ENV with each variable's marker (the same for every step). */
function runnerMarkers(): [string, string][] {
  return (runnerMarkerList ??= RUNNER_ENV.map((v) => [v, marker('env', v)]));
}

/**
 * A value a run step writes to $GITHUB_OUTPUT as a later step reads it: what the shell left unexpanded
 * (`${GITHUB_REF/refs\/tags\//}`, `$(git describe)`) is a marker (postgres-operator's image tags).
 */
function stepOutputValue(value: string, expr: string, unknowns: Unknown[]): string {
  return value.replace(/\$\{[^}]*\}|\$\((?:[^()]|\([^()]*\))*\)|`[^`]*`|\$[A-Za-z_][A-Za-z0-9_]*/g, (shell) => {
    const m = marker('shell', shell);
    unknowns.push({ expr, reason: `${expr} holds ${shell}, which the step's shell computes when the workflow runs`, marker: m });
    return m;
  });
}

/** A `run:` script: its `docker build` / `docker buildx build` commands, the step env and `working-directory` applied. */
function readRun(ctx: Ctx, step: YAMLMap, run: Scalar, scope: Scope, name: string, dirNode: Node | undefined, inherited: Unknown[], written?: Map<string, string>): BuildRecipe[] {
  const unknowns: Unknown[] = [...inherited];
  const env = new Map<string, string>();
  for (const [v, m] of runnerMarkers()) {
    env.set(v, m);
    unknowns.push({ expr: v, reason: `$${v} is set by the runner when the workflow runs`, marker: m });
  }
  for (const [k, v] of ctx.options.env ?? []) env.set(k, v);
  for (const [k, v] of scope.github ?? []) env.set(`GITHUB_${k.toUpperCase()}`, v);
  env.set('GITHUB_WORKSPACE', ctx.root);
  for (const [k, v] of scope.env) {
    if (v.known) env.set(k, textOf(v.value));
    else {
      const m = marker('env', k);
      env.set(k, m);
      unknowns.push({ expr: k, reason: `env ${k}: ${v.reason}`, marker: m });
    }
  }
  const wd = step.get('working-directory', true) ?? dirNode;
  const wdText = isScalar(wd) ? interpolate(String(wd.value), scope) : undefined;
  if (wdText) unknowns.push(...wdText.unknowns);
  const cwd = path.resolve(ctx.root, wdText?.text ?? '.');
  const commands: ExpandedCommand[] = [];
  let pending: { text: string; line: number } | undefined;
  for (const l of scalarLines(ctx, run)) {
    const r = interpolate(l.text, scope);
    unknowns.push(...r.unknowns);
    const text = pending ? `${pending.text.trimEnd()} ${r.text.trimStart()}` : r.text;
    const start = pending?.line ?? l.line;
    if (/(^|[^\\])(\\\\)*\\$/.test(r.text)) {
      pending = { text: text.slice(0, -1), line: start };
      continue;
    }
    pending = undefined;
    commands.push({ text: text.trim(), file: ctx.file, line: start });
  }
  if (pending) commands.push({ text: pending.text.trim(), file: ctx.file, line: pending.line });
  // Only the lines that can build, write, call make, cd, assign or bring a tool in through a variable are parsed (relevance.ts).
  const facts = readCommands(scriptLinesMayAct(commands.filter((c) => c.text !== ''), env), cwd, { env, oneShell: true, cwdFromSlash: path.isAbsolute(wdText?.text ?? '.') });
  if (written) for (const [k, v] of facts.stepOutputs ?? []) written.set(k, v);
  const why = whyOf(unknowns);
  for (const m of facts.makes) ctx.options.makes?.push({ make: m, env, label: `${ctx.file}:${m.source.line} ${name}`, kind: 'github-actions' });
  return facts.builds.flatMap((b) => {
    if (b.stage && hasMarker(b.stage)) ctx.problems.push({ file: ctx.file, line: b.source.line, code: 'workflow-expression-unknown', reason: `--target "${readableMarkers(b.stage)}" cannot be evaluated: ${why(b.stage)}` });
    return (ctx.options.assemble?.recipesOfBuild ?? recipesOfBuild)(ctx.root, origin(ctx, name, why), b, [], ctx.problems);
  });
}

function origin(ctx: Ctx, name: string, why: (text: string) => string): RecipeOrigin {
  return { kind: 'github-actions', file: ctx.file, name, label: `${ctx.file} ${name}`, why: (t) => why(t) || undefined };
}

/** The reasons of the unknowns whose markers appear in `text`. */
function whyOf(unknowns: Unknown[]): (text: string) => string {
  return (text) => [...new Set(unknowns.filter((u) => text.includes(u.marker)).map((u) => `${u.expr}: ${u.reason}`))].join('; ');
}

/** `env:` of a workflow, job or step, each value evaluated in the enclosing scope, over `outer`. */
function readEnv(ctx: Ctx, node: unknown, outer: ReadonlyMap<string, Evaluated>, matrix: Scope['matrix']): Map<string, Evaluated> {
  const env = new Map(outer);
  if (node === undefined || node === null) return env;
  if (isScalar(node) && typeof node.value === 'string') {
    ctx.problems.push({ file: ctx.file, line: lineOf(ctx, node), code: 'workflow-expression-unknown', reason: `env "${node.value}" is computed at run time, so no variable of it is known` });
    return env;
  }
  if (!isMap(node)) return env;
  const scope: Scope = { env: outer, ...(matrix ? { matrix } : {}), ...scopeExtras(ctx) };
  for (const pair of node.items as Pair[]) {
    if (!isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    const v = pair.value;
    if (!isScalar(v)) {
      env.set(key, { known: false, reason: 'its value is not a string' });
      continue;
    }
    const r = interpolate(v.value === null ? '' : String(v.value), scope);
    // a value only the run knows (`DOCKERIO_ORG: ${{ secrets.DOCKERIO_ORG }}`) is what pinwatch.yaml's buildEnv says, when it says
    const given = r.unknowns.length > 0 ? ctx.options.env?.get(key) : undefined;
    if (given !== undefined) env.set(key, { known: true, value: given });
    else env.set(key, evaluatedOf(r));
  }
  return env;
}

/** The github context and called-workflow inputs every scope of this file sees. */
function scopeExtras(ctx: Ctx): Pick<Scope, 'github' | 'inputs'> {
  return { ...(ctx.options.github ? { github: ctx.options.github } : {}), ...(ctx.options.call ? { inputs: ctx.options.call.inputs } : {}) };
}

/** `on.workflow_call.inputs.<name>.default` of a reusable workflow. */
function callInputDefaults(top: YAMLMap): Map<string, Evaluated> {
  const out = new Map<string, Evaluated>();
  const on = top.get('on', true);
  const call = isMap(on) ? on.get('workflow_call', true) : undefined;
  const inputs = isMap(call) ? call.get('inputs', true) : undefined;
  if (!isMap(inputs)) return out;
  for (const pair of inputs.items) {
    if (!isScalar(pair.key) || !isMap(pair.value)) continue;
    const d = pair.value.get('default', true);
    if (isScalar(d) && d.value !== null && d.value !== undefined) out.set(String(pair.key.value), { known: true, value: d.value as Value });
  }
  return out;
}

/**
 * A job that calls a reusable workflow in this repository (`uses: ./.github/workflows/x.yaml`, `with:`):
 * the called file read once for this caller, its `inputs.*` the evaluated `with:` values (one level: a
 * call inside a called workflow is not followed).
 */
function readCall(ctx: Ctx, jobId: string, job: YAMLMap, uses: Scalar, scope: Scope, label: string): BuildRecipe[] {
  const target = String(uses.value);
  if (!target.startsWith('./')) return [];
  const line = lineOf(ctx, uses);
  const called = target.slice(2).split('@')[0]!;
  if (ctx.options.call) {
    ctx.problems.push({ file: ctx.file, line, code: 'workflow-call-nested', reason: `${called} is called from a called workflow; pinwatch follows reusable workflows one level, so its builds are read only on their own` });
    return [];
  }
  const text = ctx.options.readCalled?.(called);
  if (text === undefined) {
    ctx.problems.push({ file: ctx.file, line, code: 'workflow-call-missing', reason: `jobs.${jobId} calls ${called}, which is not a file in the tree` });
    return [];
  }
  const inputs = withInputs(job.get('with', true), scope);
  const { call: _call, ...rest } = ctx.options;
  return readWorkflow(ctx.root, called, text, ctx.problems, { ...rest, call: { inputs, via: `${ctx.file}:${line} jobs.${jobId}${label}` } });
}

function workingDirectory(map: YAMLMap): Node | undefined {
  const defaults = map.get('defaults', true);
  const run = isMap(defaults) ? defaults.get('run', true) : undefined;
  const wd = isMap(run) ? run.get('working-directory', true) : undefined;
  return isScalar(wd) ? wd : undefined;
}

/** The text of a scalar line by line, each with the file line it is written on (block scalars exactly, others at their start). */
function scalarLines(ctx: Ctx, node: Scalar): { text: string; line: number }[] {
  const text = node.value === null || node.value === undefined ? '' : String(node.value);
  const start = lineOf(ctx, node);
  const block = node.type === 'BLOCK_LITERAL';
  return text.split('\n').map((t, i) => ({ text: t, line: block ? start + 1 + i : start }));
}

function lineOf(ctx: Ctx, node: Node): number {
  return node.range ? ctx.lc.linePos(node.range[0]).line : 1;
}

function comboLabel(values: Record<string, Value>): string {
  const parts = Object.entries(values).map(([k, v]) => `${k}=${textOf(v)}`);
  return parts.length ? ` [${parts.join(', ')}]` : '';
}

function shellWord(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./⟨⟩\u00a0-\uffff-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}
