/**
 * deriveBuildInputs: config first, then the recipe's Dockerfile (stages the
 * target needs, COPY/ADD/bind-mount sources, .dockerignore), then Go narrowing;
 * for a ko recipe, the Go import closure of its main package (go/ko.ts); then
 * the inputs the recipe names itself (files build args read, Go mains).
 * Never throws for bad input: what cannot be derived becomes `unknownReason`.
 */
import { posix } from 'node:path';
import type { ImageConfig } from '../config/types.js';
import type { BuildRecipe } from '../producers/index.js';
import { recipeAt } from '../producers/recipes.js';
import { scanContextSources } from './context-sources.js';
import { dockerignoreEntries } from './dockerignore.js';
import { parseDockerfile } from '../dockerfile/parse.js';
import { buildArgsOf } from '../dockerfile/build-args.js';
import { neededStages } from '../dockerfile/stages.js';
import { goMainInputs, narrowGo } from './go/narrowing.js';
import { koInputs } from './go/ko.js';
import { readSourceText } from './read.js';
import { isGlob, normalizeDir } from './matcher.js';
import { dirPattern, isWithin, pathKind, repoJoin } from './paths.js';
import { globBase } from '../util/glob.js';
import type { BuildInputs, InputPattern } from './types.js';
import { listSome } from '../util/list.js';

export interface BuildInputsRequest {
  /** Short name or repository, for messages. */
  image: string;
  recipe?: BuildRecipe;
  config?: ImageConfig;
}

interface BuildSpec {
  dockerfile: string;
  context: string;
  target?: string;
  origin: string;
  buildArgs: Map<string, string | undefined>;
}


function configInputs(globs: readonly string[], why: string): InputPattern[] {
  return globs.map((g) => ({ path: g, kind: isGlob(g) ? 'glob' : 'tree', why }));
}

function buildSpec(req: BuildInputsRequest): BuildSpec | undefined {
  const { recipe, config } = req;
  // A recipe without a Dockerfile (a goreleaser ko image) is its own inputs only.
  if (recipe?.dockerfile === '' && config?.dockerfile === undefined && config?.context === undefined) return undefined;
  const origin = config?.dockerfile || config?.context ? `pinwatch.yaml images.${req.image}` : recipe ? `recipe ${recipeAt(recipe)}` : '';
  const rawContext = config?.context ?? recipe?.context;
  const rawDockerfile = config?.dockerfile ?? (config?.context === undefined ? recipe?.dockerfile : undefined);
  if (rawContext === undefined && rawDockerfile === undefined) return undefined;
  const context = repoJoin(normalizeDir(rawContext ?? posix.dirname(rawDockerfile!)));
  const dockerfile = repoJoin(normalizeDir(rawDockerfile ?? repoJoin(context, 'Dockerfile')));
  return { dockerfile, context, target: config?.target ?? recipe?.stage, origin, buildArgs: buildArgsOf(recipe?.command) };
}

function empty(image: string, steps: string[], unknownReason?: string): BuildInputs {
  return { image, inputs: [], ignore: [], steps, unknownReason };
}

async function readIgnoreFile(repoRoot: string, spec: BuildSpec, out: BuildInputs): Promise<void> {
  for (const file of [`${spec.dockerfile}.dockerignore`, repoJoin(spec.context, '.dockerignore')]) {
    const read = readSourceText(repoRoot, file);
    if ('missing' in read) continue;
    if ('refused' in read) {
      out.inputs.push({ path: file, kind: 'file', why: '.dockerignore of the build context' });
      out.steps.push(`${file}: ${read.refused}; nothing is excluded, the whole context counts`);
      return;
    }
    const text = read.text;
    const { entries, problems } = dockerignoreEntries(text, spec.context);
    out.inputs.push({ path: file, kind: 'file', why: '.dockerignore of the build context' });
    out.ignore.push(...entries, `!${spec.dockerfile}`, `!${file}`);
    out.steps.push(`${file}: ${entries.length} pattern${entries.length === 1 ? '' : 's'} excluded from the context (last match wins, ! re-includes)`);
    for (const p of problems) out.steps.push(`${file}:${p.line}: ${p.reason}`);
    return;
  }
  out.steps.push(`no ${spec.dockerfile}.dockerignore or ${repoJoin(spec.context, '.dockerignore')}: the whole context is sent`);
}

/**
 * Derives the Dockerfile's inputs into `out`; returns the ARG names it declares, once it is read.
 * A COPY source the working tree lacks was made before the build (`go build -o bin/app`, `npm run
 * build`): what it was made from is unknown, so are the image's inputs (a change to its sources
 * must not read as current), unless the recipe says what it makes (`made`: goreleaser's binaries).
 */
async function fromDockerfile(repoRoot: string, spec: BuildSpec, out: BuildInputs, made: MadeBy): Promise<ReadonlySet<string> | undefined> {
  const outside = [spec.dockerfile, spec.context].find((p) => p === '..' || p.startsWith('../') || p.startsWith('/'));
  if (outside !== undefined) {
    out.unknownReason = `${outside} is outside the repository (from ${spec.origin})`;
    return;
  }
  const read = readSourceText(repoRoot, spec.dockerfile);
  if (!('text' in read)) {
    out.unknownReason = 'missing' in read ? `Dockerfile ${spec.dockerfile} does not exist (from ${spec.origin})` : `Dockerfile ${spec.dockerfile}: ${read.refused} (from ${spec.origin})`;
    return;
  }
  const text = read.text;
  if ((await pathKind(repoRoot, spec.context)) !== 'dir') {
    out.unknownReason = `build context ${spec.context} is not a directory (from ${spec.origin})`;
    return;
  }
  const name = posix.basename(spec.dockerfile);
  out.steps.push(`${spec.dockerfile} with context ${dirPattern(spec.context)}${spec.target ? ` and target ${spec.target}` : ''} (from ${spec.origin})`);
  out.inputs.push({ path: spec.dockerfile, kind: 'file', why: 'Dockerfile' });
  const parsed = parseDockerfile(text, spec.buildArgs);
  for (const p of parsed.problems) out.steps.push(`${spec.dockerfile}:${p.line}: ${p.reason}`);
  const chosen = neededStages(parsed, spec.target);
  if ('error' in chosen) {
    out.unknownReason = `${spec.dockerfile}: ${chosen.error} (from ${spec.origin})`;
    return parsed.args;
  }
  const names = chosen.needed.map((s) => s.name ?? `#${s.index}`);
  out.steps.push(`stages built for ${chosen.target.name ?? `#${chosen.target.index}`}: ${names.join(', ')} (of ${parsed.stages.length})`);
  await readIgnoreFile(repoRoot, spec, out);
  const scan = await scanContextSources(repoRoot, spec.context, parsed, chosen.needed, name);
  out.steps.push(...scan.steps);
  const unmade = scan.missing.filter((m) => !made(m.path));
  if (unmade.length > 0) {
    out.unknownReason = `${listSome(unmade.map((m) => m.text))} ${unmade.length === 1 ? 'is' : 'are'} not in the working tree: made before the build from sources pinwatch does not know (declare images.${out.image}.inputs in pinwatch.yaml) (from ${spec.origin})`;
    return parsed.args;
  }
  const go = await narrowGo(repoRoot, spec.context, parsed, chosen.needed, scan.sources, name);
  out.steps.push(...go.steps);
  for (const s of scan.sources) {
    if (go.narrowed.has(s)) continue;
    out.inputs.push({ path: s.kind === 'tree' && (await pathKind(repoRoot, s.path)) === 'dir' ? dirPattern(s.path) : s.path, kind: s.kind, why: s.why });
  }
  out.inputs.push(...go.inputs);
  out.ignore.push(...go.ignore);
  return parsed.args;
}

/** Whether the recipe makes a path before the build (a COPY of it is known): goreleaser's binaries (any Go main it builds), or what `cp`/`go build -o` lines make (producers/made.ts). */
type MadeBy = (path: string) => boolean;

function madeBy(own: NonNullable<BuildRecipe['inputs']>): MadeBy {
  if (own.some((i) => i.go === true && i.made === undefined)) return () => true;
  const made = own.flatMap((i) => (i.made === undefined ? [] : [i.made]));
  return (path) => {
    const base = isGlob(path) ? globBase(path) : path;
    return made.some((m) => isWithin(base, m) || isWithin(m, base));
  };
}

function dedupe(inputs: InputPattern[]): InputPattern[] {
  const seen = new Set<string>();
  return inputs.filter((p) => {
    const key = `${p.kind ?? ''}\u0000${p.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The inputs a recipe names itself (files build args read, goreleaser extra files, Go main packages).
 * `args`: the ARG names of the Dockerfile built, when it was read: a file only a build arg of another
 * name reads is no input (BuildKit ignores an undeclared build arg; kind's images get GO_VERSION from
 * .go-version whether their Dockerfile asks for it or not).
 */
async function recipeInputs(repoRoot: string, own: NonNullable<BuildRecipe['inputs']>, out: BuildInputs, args: ReadonlySet<string> | undefined, dockerfile: string | undefined): Promise<void> {
  for (const i of own) {
    if (i.arg !== undefined && args && !args.has(i.arg)) {
      out.steps.push(`${i.path}: ${i.why}, but ${dockerfile} declares no ARG ${i.arg} (BuildKit ignores it): no input`);
      continue;
    }
    if (!i.go) {
      const kind = i.kind ?? ((await pathKind(repoRoot, i.path)) === 'dir' ? 'tree' : 'file');
      out.inputs.push({ path: kind === 'tree' ? dirPattern(i.path) : i.path, kind, why: i.why });
      out.steps.push(`${i.path}: ${i.why}`);
      continue;
    }
    const go = await goMainInputs(repoRoot, i.path, i.why);
    if ('unknown' in go) {
      out.unknownReason = go.unknown;
      return;
    }
    out.steps.push(...go.steps);
    out.inputs.push(...go.inputs);
    out.ignore.push(...go.ignore);
  }
}

async function derive(repoRoot: string, req: BuildInputsRequest): Promise<BuildInputs> {
  const { config } = req;
  const declared = config?.inputs ?? [];
  if (config?.derive === false) {
    if (declared.length === 0) return empty(req.image, [], `images.${req.image} sets derive: false but declares no inputs`);
    return { image: req.image, inputs: configInputs(declared, 'config inputs'), ignore: [...(config.ignore ?? [])], steps: [`inputs declared in pinwatch.yaml images.${req.image} (derive: false)`] };
  }
  const out = empty(req.image, []);
  const ko = !config?.dockerfile && !config?.context ? req.recipe?.ko : undefined;
  const spec = ko ? undefined : buildSpec(req);
  const own = req.recipe?.inputs ?? [];
  let args: ReadonlySet<string> | undefined;
  if (ko) await koInputs(repoRoot, ko, `recipe ${recipeAt(req.recipe!)}`, out);
  else if (spec) args = await fromDockerfile(repoRoot, spec, out, madeBy(own));
  else if (own.length > 0) out.steps.push(`no Dockerfile: inputs from recipe ${recipeAt(req.recipe!)}`);
  else if (declared.length === 0) {
    out.unknownReason = `no build recipe or config names how ${req.image} is built; declare images.${req.image} in pinwatch.yaml`;
  } else out.steps.push(`no Dockerfile known for ${req.image}; inputs from pinwatch.yaml only`);
  if (!out.unknownReason && own.length > 0) await recipeInputs(repoRoot, own, out, args, spec?.dockerfile);
  if (out.unknownReason && declared.length === 0) return empty(req.image, out.steps, out.unknownReason);
  if (out.unknownReason) {
    out.steps.push(`${out.unknownReason}; using the inputs declared in pinwatch.yaml`);
    out.unknownReason = undefined;
    out.inputs = [];
    out.ignore = [];
  }
  if (declared.length > 0) {
    out.inputs.push(...configInputs(declared, 'config inputs'));
    out.steps.push(`pinwatch.yaml images.${req.image}.inputs: ${declared.join(', ')}`);
  }
  if (config?.ignore?.length) {
    out.ignore.push(...config.ignore);
    out.steps.push(`pinwatch.yaml images.${req.image}.ignore: ${config.ignore.join(', ')}`);
  }
  out.inputs = dedupe(out.inputs);
  return out;
}

export async function deriveBuildInputs(repoRoot: string, req: BuildInputsRequest): Promise<BuildInputs> {
  try {
    return await derive(repoRoot, req);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return empty(req.image, [], `could not derive build inputs for ${req.image}: ${message}`);
  }
}
