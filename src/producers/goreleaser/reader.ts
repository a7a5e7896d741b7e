/**
 * The goreleaser recipe reader: the images a `.goreleaser.yml` releases, as
 * BuildRecipes. `dockers:` (`image_templates`, `dockerfile`, `extra_files`,
 * `build_flag_templates` `--target`/`--build-arg`/`--platform`, `ids`),
 * `dockers_v2:` (`images` × `tags`, `dockerfile`, `build_args`, `platforms`,
 * `extra_files`, `ids`) and `kos:` (`repositories`/`repository`, `main`,
 * `working_dir`, `build`). goreleaser builds the Go binaries of `builds:`
 * first and copies them with the extra files into a fresh context, so an
 * image's inputs are its Dockerfile, its extra files, the config itself and
 * the Go import closure of each binary's main package (`go: true` inputs);
 * a ko image has no Dockerfile. Template fields (`{{ .Version }}`, `{{ .Tag }}`,
 * `{{ .Env.X }}`) are unknowns, except `{{ .ProjectName }}` when set.
 */
import * as path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, type Node, type YAMLMap } from 'yaml';
import { parseYamlDocument, withMerges } from '../../collect/index.js';
import { hasMarker, marker, readableMarkers } from '../../make/index.js';
import type { Problem } from '../../model/index.js';
import { recipeOfBuild } from '../assemble.js';
import { shellWord, type FoundBuild } from '../build-command.js';
import type { BuildRecipe, RecipeInput } from '../types.js';

interface Ctx {
  root: string;
  file: string;
  lc: LineCounter;
  problems: Problem[];
  project?: string;
  unknowns: { marker: string; reason: string }[];
  builds: Map<string, { main: string; line: number }>;
}

/** Recipes of one goreleaser config (`file` repo-relative, `text` its content). */
export function readGoreleaser(root: string, file: string, text: string, problems: Problem[]): BuildRecipe[] {
  const lc = new LineCounter();
  const doc = parseYamlDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: false, merge: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    problems.push({ file, line: lc.linePos(e.pos[0]).line, code: 'goreleaser-yaml-error', reason: `not valid YAML, so its images are not read: ${e.message.split('\n')[0]}` });
    return [];
  }
  const top = doc.contents;
  if (!isMap(top)) return [];
  const ctx: Ctx = { root, file, lc, problems, unknowns: [], builds: new Map() };
  const pn = top.get('project_name', true);
  if (isScalar(pn) && typeof pn.value === 'string' && !String(pn.value).includes('{{')) ctx.project = String(pn.value);
  const builds = top.get('builds', true);
  const buildList = isSeq(builds) ? builds.items : [];
  if (buildList.length === 0) ctx.builds.set('', { main: '.', line: 1 });
  buildList.forEach((item, i) => {
    if (!isMap(item)) return;
    const b = withMerges(doc, item);
    if (b.get('builder') !== undefined && b.get('builder') !== 'go') return;
    const id = typeof b.get('id') === 'string' ? String(b.get('id')) : i === 0 ? (ctx.project ?? 'default') : `#${i + 1}`;
    const dir = typeof b.get('dir') === 'string' ? String(b.get('dir')) : '.';
    const main = typeof b.get('main') === 'string' ? String(b.get('main')) : '.';
    // `main` may name a file (`./cmd/app/main.go`): its package is the directory.
    const pkg = path.posix.normalize(path.posix.join(dir, main.endsWith('.go') ? path.posix.dirname(main) : main));
    ctx.builds.set(id, { main: pkg, line: lineOf(ctx, b) });
  });
  const recipes: BuildRecipe[] = [];
  for (const key of ['dockers', 'dockers_v2', 'kos']) {
    const list = top.get(key, true);
    if (list === undefined || list === null) continue;
    if (!isSeq(list)) {
      problems.push({ file, line: lineOf(ctx, list as Node), code: 'goreleaser-unreadable', reason: `${key} is not a list, so its images are not read` });
      continue;
    }
    list.items.forEach((entry, i) => {
      if (!isMap(entry)) return;
      const item = withMerges(doc, entry);
      const name = `${key}[${i}]${typeof item.get('id') === 'string' ? ` (${String(item.get('id'))})` : ''}`;
      const r = key === 'kos' ? readKo(ctx, item, name) : readDocker(ctx, item, name, key === 'dockers_v2');
      if (r) recipes.push(r);
    });
  }
  return recipes;
}

/** The text of a scalar with `{{ … }}` templates as unknown markers. */
function template(ctx: Ctx, node: unknown): { value: string; line: number } | undefined {
  if (!isScalar(node) || node.value === null || node.value === undefined) return undefined;
  const line = lineOf(ctx, node as Node);
  const value = String(node.value).replace(/\{\{-?\s*([\s\S]*?)\s*-?\}\}/g, (_all, expr: string) => {
    if (/^\.ProjectName$/.test(expr) && ctx.project) return ctx.project;
    const m = marker('tmpl', expr);
    ctx.unknowns.push({ marker: m, reason: `{{ ${expr} }} is filled in by goreleaser at release time` });
    return m;
  });
  return { value, line };
}

function templates(ctx: Ctx, map: YAMLMap, key: string, name: string): { value: string; line: number }[] {
  const n = map.get(key, true) as Node | null | undefined;
  if (n === undefined || n === null) return [];
  if (isScalar(n)) return [template(ctx, n)!];
  if (!isSeq(n)) {
    ctx.problems.push({ file: ctx.file, line: lineOf(ctx, n as Node), code: 'goreleaser-unreadable', reason: `${name}.${key} is not a list` });
    return [];
  }
  return n.items.flatMap((i) => {
    const t = template(ctx, i);
    return t ? [t] : [];
  });
}

/** The Go main packages of the builds an image takes its binaries from (`ids`, default every build). */
function binaries(ctx: Ctx, item: YAMLMap, name: string, key: 'ids' | 'build'): RecipeInput[] {
  const wanted = key === 'build' ? templates(ctx, item, 'build', name) : templates(ctx, item, 'ids', name);
  const ids = wanted.length ? wanted.map((w) => w.value) : [...ctx.builds.keys()];
  const out: RecipeInput[] = [];
  for (const id of ids) {
    const b = ctx.builds.get(id);
    if (!b) {
      const w = wanted.find((x) => x.value === id);
      ctx.problems.push({ file: ctx.file, line: w?.line ?? lineOf(ctx, item), code: 'goreleaser-build-unknown', reason: `${name} takes the binaries of build "${readableMarkers(id)}", which builds: does not define, so their sources are not inputs` });
      continue;
    }
    out.push({ path: b.main, go: true, why: `go build ${b.main} (${ctx.file}:${b.line}, binary of ${name})` });
  }
  return out;
}

function readDocker(ctx: Ctx, item: YAMLMap, name: string, v2: boolean): BuildRecipe | undefined {
  const line = lineOf(ctx, item);
  const dockerfileIn = template(ctx, item.get('dockerfile', true)) ?? { value: 'Dockerfile', line };
  const extra = templates(ctx, item, 'extra_files', name);
  let tags: string[] = [];
  let stage: string | undefined;
  const args: string[] = [];
  let platforms: string[] = [];
  if (v2) {
    const images = templates(ctx, item, 'images', name);
    const t = templates(ctx, item, 'tags', name);
    tags = images.flatMap((i) => (t.length ? t : [{ value: 'latest', line }]).map((x) => `${i.value}:${x.value}`));
    platforms = templates(ctx, item, 'platforms', name).map((p) => p.value);
    const ba = item.get('build_args', true);
    if (isMap(ba)) for (const p of ba.items) args.push(`${isScalar(p.key) ? String(p.key.value) : ''}=${template(ctx, p.value)?.value ?? ''}`);
    const target = template(ctx, item.get('target', true));
    stage = target?.value;
  } else {
    tags = templates(ctx, item, 'image_templates', name).map((t) => t.value);
    const flags = templates(ctx, item, 'build_flag_templates', name);
    for (let i = 0; i < flags.length; i++) {
      const f = flags[i]!.value.trim();
      const m = /^(--target|--build-arg|--platform)(?:=(.*)|\s+(.*))?$/.exec(f);
      if (!m) continue;
      const value = m[2] ?? m[3] ?? flags[++i]?.value ?? '';
      if (m[1] === '--target') stage = value;
      else if (m[1] === '--build-arg') args.push(value);
      else platforms.push(...value.split(','));
    }
  }
  const why = (text: string) => [...new Set(ctx.unknowns.filter((u) => text.includes(u.marker)).map((u) => u.reason))].join('; ');
  // a build arg templated at release time (`VERSION={{ .Version }}`) is no problem: the Dockerfile's ARG has no value then (sources/derive.ts)
  for (const [what, v] of [['target', stage], ...platforms.map((p) => ['platform', p] as const)] as const) {
    if (v && hasMarker(v)) ctx.problems.push({ file: ctx.file, line, code: 'goreleaser-template-unknown', reason: `${what} "${readableMarkers(v)}" of ${name} cannot be evaluated: ${why(v)}` });
  }
  const inputs: RecipeInput[] = [{ path: ctx.file, kind: 'file', why: `goreleaser config of ${name}` }];
  for (const e of extra) {
    if (hasMarker(e.value)) ctx.problems.push({ file: ctx.file, line: e.line, code: 'goreleaser-template-unknown', reason: `extra file "${readableMarkers(e.value)}" of ${name} cannot be evaluated: ${why(e.value)}` });
    else inputs.push({ path: path.posix.normalize(e.value), why: `extra_files of ${name} (${ctx.file}:${e.line})` });
  }
  inputs.push(...binaries(ctx, item, name, 'ids'));
  const argv = [
    'docker', 'buildx', 'build', '--file', dockerfileIn.value,
    ...(stage ? ['--target', stage] : []),
    ...args.flatMap((a) => ['--build-arg', a]),
    ...(platforms.length ? ['--platform', platforms.join(',')] : []),
    ...tags.flatMap((t) => ['--tag', t]),
    '<goreleaser context>',
  ];
  // The context is a directory goreleaser fills with the binaries and the extra files (at their repository paths): read against the repository root.
  const build: FoundBuild = {
    tool: 'goreleaser',
    context: path.resolve(ctx.root),
    contextArg: '.',
    dockerfile: path.resolve(ctx.root, dockerfileIn.value),
    ...(stage ? { stage } : {}),
    tags,
    outputs: [],
    command: `goreleaser ${name}: ${argv.map(shellWord).join(' ')}`,
    source: { file: ctx.file, line },
    order: 0,
  };
  const recipe = recipeOfBuild(ctx.root, { kind: 'goreleaser', file: ctx.file, name, label: `${ctx.file} ${name}`, why: (t) => why(t) || undefined }, build, [], ctx.problems);
  return { ...recipe, inputs };
}

function readKo(ctx: Ctx, item: YAMLMap, name: string): BuildRecipe | undefined {
  const line = lineOf(ctx, item);
  const repos = [...templates(ctx, item, 'repositories', name), ...templates(ctx, item, 'repository', name)];
  const tagList = templates(ctx, item, 'tags', name);
  const why = (text: string) => [...new Set(ctx.unknowns.filter((u) => text.includes(u.marker)).map((u) => u.reason))].join('; ');
  if (repos.length === 0) {
    const m = marker('env', 'KO_DOCKER_REPO');
    ctx.unknowns.push({ marker: m, reason: 'no repository: ko pushes to $KO_DOCKER_REPO, set when goreleaser runs' });
    repos.push({ value: m, line });
  }
  const tags = repos.flatMap((r) => (tagList.length ? tagList : [{ value: 'latest', line }]).map((t) => `${r.value}:${t.value}`));
  const main = template(ctx, item.get('main', true));
  const wd = template(ctx, item.get('working_dir', true));
  const inputs: RecipeInput[] = [{ path: ctx.file, kind: 'file', why: `goreleaser config of ${name}` }];
  if (main) {
    const pkg = path.posix.normalize(path.posix.join(wd?.value ?? '.', main.value.endsWith('.go') ? path.posix.dirname(main.value) : main.value));
    inputs.push({ path: pkg, go: true, why: `ko build ${pkg} (${ctx.file}:${main.line}, ${name})` });
  } else inputs.push(...binaries(ctx, item, name, 'build'));
  const build: FoundBuild = {
    tool: 'goreleaser ko',
    context: path.resolve(ctx.root, wd?.value ?? '.'),
    contextArg: wd?.value ?? '.',
    tags,
    outputs: [],
    command: `goreleaser ${name}: ko build ${tags.map(shellWord).join(' ')}`,
    source: { file: ctx.file, line },
    order: 0,
  };
  // ko builds no Dockerfile: recipeOfBuild would look for one, so the recipe is assembled here from its repositories.
  const probe: Problem[] = [];
  const recipe = recipeOfBuild(ctx.root, { kind: 'goreleaser', file: ctx.file, name, label: `${ctx.file} ${name}`, why: (t) => why(t) || undefined }, build, [], probe);
  ctx.problems.push(...probe.filter((p) => p.code !== 'recipe-dockerfile-missing'));
  return { ...recipe, dockerfile: '', inputs };
}

function lineOf(ctx: Ctx, node: Node): number {
  return node.range ? ctx.lc.linePos(node.range[0]).line : 1;
}
