/**
 * The docker compose recipe reader: every `services.<name>.build` of a compose
 * file as a BuildRecipe — `build: DIR` or `build: { context, dockerfile,
 * target, args (map or list), platforms, tags }` — tagging the service's
 * `image:` (compose tags the image it builds with it) and `build.tags`, every
 * value interpolated from the project `.env` as compose does. A variable the
 * repository does not set is a problem with file:line, never part of a name.
 */
import * as path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, type Node, type YAMLMap } from 'yaml';
import { parseYamlDocument, withMerges } from '../../collect/index.js';
import { hasMarker, marker, readableMarkers } from '../../make/index.js';
import type { Problem } from '../../model/index.js';
import { recipeOfBuild } from '../assemble.js';
import { foundBuildOf } from '../build-command.js';
import type { BuildRecipe } from '../types.js';
import { interpolateCompose as interpolateWith } from '../../util/compose-interpolate.js';

/** Compose interpolation with the build model's markers for unknown variables. */
const interpolateCompose = (text: string, env: ReadonlyMap<string, string>) => interpolateWith(text, env, (name) => marker('env', name));

interface Ctx {
  root: string;
  file: string;
  lc: LineCounter;
  env: ReadonlyMap<string, string>;
  problems: Problem[];
  unknowns: { marker: string; reason: string }[];
}

/**
 * Recipes of one compose file (`file` repo-relative); `env` the project .env
 * variables; `baseImages` the `image:` of each service in the file an override
 * file is merged into (compose.override.yml into compose.yml), for services the
 * override builds without naming their image.
 */
export function readCompose(root: string, file: string, text: string, env: ReadonlyMap<string, string>, problems: Problem[], baseImages: ReadonlyMap<string, string> = new Map()): BuildRecipe[] {
  const lc = new LineCounter();
  const doc = parseYamlDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: false, merge: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    problems.push({ file, line: lc.linePos(e.pos[0]).line, code: 'compose-yaml-error', reason: `not valid YAML, so its builds are not read: ${e.message.split('\n')[0]}` });
    return [];
  }
  const ctx: Ctx = { root, file, lc, env, problems, unknowns: [] };
  const top = doc.contents;
  if (!isMap(top)) return [];
  const services = top.get('services', true);
  if (!isMap(services)) return [];
  const nameNode = top.get('name', true);
  const project = isScalar(nameNode) ? str(ctx, nameNode, 'name')?.value : undefined;
  const projectName = (project && !hasMarker(project) ? project : path.posix.basename(path.resolve(root, path.posix.dirname(file)))).toLowerCase().replace(/[^a-z0-9_-]/g, '');
  const recipes: BuildRecipe[] = [];
  for (const pair of services.items) {
    const service = isScalar(pair.key) ? String(pair.key.value) : '?';
    if (!isMap(pair.value)) continue;
    const svc = withMerges(doc, pair.value);
    const build = svc.get('build', true) as Node | undefined;
    if (svc.has('extends')) {
      problems.push({ file, line: lineOf(ctx, pair.key as Node), code: 'compose-extends-not-read', reason: `services.${service} extends another service, whose build and image pinwatch does not merge in; only what is written here is read` });
    }
    if (build === undefined || build === null) continue;
    const r = readService(ctx, service, svc, build, projectName, baseImages.get(service));
    if (r) recipes.push(r);
  }
  return recipes;
}

/** The interpolated `image:` of every service of a compose file (what an override file merged into it inherits). */
export function serviceImages(text: string, env: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  const doc = parseYamlDocument(text, { prettyErrors: false, uniqueKeys: false, merge: true });
  const services = isMap(doc.contents) ? doc.contents.get('services', true) : undefined;
  if (doc.errors.length > 0 || !isMap(services)) return out;
  for (const pair of services.items) {
    const image = isMap(pair.value) ? withMerges(doc, pair.value).get('image', true) : undefined;
    if (isScalar(pair.key) && isScalar(image) && image.value !== null) out.set(String(pair.key.value), interpolateCompose(String(image.value), env).text);
  }
  return out;
}

function readService(ctx: Ctx, service: string, svc: YAMLMap, build: Node, project: string, baseImage: string | undefined): BuildRecipe | undefined {
  // The line of `build:` itself (a mapping value starts on the line after).
  const key = svc.items.find((p) => isScalar(p.key) && p.key.value === 'build')?.key as Node | undefined;
  const line = lineOf(ctx, key ?? build);
  const dir = path.posix.dirname(ctx.file);
  let contextIn: { value: string; line: number } | undefined;
  let opts: YAMLMap | undefined;
  if (isScalar(build)) contextIn = str(ctx, build, `services.${service}.build`);
  else if (isMap(build)) {
    opts = build;
    const c = build.get('context', true);
    contextIn = isScalar(c) ? str(ctx, c, `services.${service}.build.context`) : undefined;
  } else {
    ctx.problems.push({ file: ctx.file, line, code: 'compose-build-unreadable', reason: `services.${service}.build is neither a directory nor a mapping, so it is not read` });
    return undefined;
  }
  const field = (key: string) => {
    const n = opts?.get(key, true);
    if (n === undefined || n === null) return undefined;
    if (!isScalar(n)) {
      ctx.problems.push({ file: ctx.file, line: lineOf(ctx, n as Node), code: 'compose-build-unreadable', reason: `services.${service}.build.${key} is not a string` });
      return undefined;
    }
    return str(ctx, n, `services.${service}.build.${key}`);
  };
  const list = (key: string) => {
    const n = opts?.get(key, true);
    if (n === undefined || n === null) return [];
    if (!isSeq(n)) {
      ctx.problems.push({ file: ctx.file, line: lineOf(ctx, n as Node), code: 'compose-build-unreadable', reason: `services.${service}.build.${key} is not a list` });
      return [];
    }
    return n.items.flatMap((i) => (isScalar(i) ? [str(ctx, i, `services.${service}.build.${key}`)!] : []));
  };
  const fileIn = field('dockerfile');
  const stageIn = field('target');
  const platforms = list('platforms');
  const extraTags = list('tags');
  for (const key of ['dockerfile_inline', 'additional_contexts']) {
    const n = opts?.get(key, true);
    if (n !== undefined) {
      ctx.problems.push({
        file: ctx.file,
        line: lineOf(ctx, n as Node),
        code: 'compose-build-unsupported',
        reason: key === 'dockerfile_inline' ? `services.${service} has an inline Dockerfile, whose COPY sources are not read as build inputs` : `additional contexts of services.${service} are not read as build inputs`,
      });
    }
  }
  const args = readArgs(ctx, service, opts?.get('args', true) as Node | undefined);
  const imageNode = svc.get('image', true);
  const image = isScalar(imageNode) ? str(ctx, imageNode, `services.${service}.image`) : undefined;
  // Without image:, compose tags the build `<project>-<service>` (a local image, never pushed under a registry name).
  const own = image?.value ?? baseImage;
  const tags = [...(own !== undefined ? [own] : [`${project}-${service}`]), ...extraTags.map((t) => t.value)];

  const why = (text: string) => [...new Set(ctx.unknowns.filter((u) => text.includes(u.marker)).map((u) => u.reason))].join('; ');
  const report = (what: string, v: { value: string; line: number } | undefined) => {
    if (v && hasMarker(v.value)) ctx.problems.push({ file: ctx.file, line: v.line, code: 'compose-variable-unset', reason: `${what} "${readableMarkers(v.value)}" cannot be evaluated: ${why(v.value)}` });
  };
  report(`services.${service}.build.target`, stageIn);
  for (const a of args) report(`build arg`, a);
  for (const p of platforms) report('platform', p);

  const contextArg = contextIn?.value ?? '.';
  const remote = /^[a-z]+:\/\//.test(contextArg) || contextArg.startsWith('git@');
  const contextAbs = remote || hasMarker(contextArg) ? '' : path.resolve(ctx.root, dir, contextArg);
  const dockerfile = fileIn && contextAbs && !hasMarker(fileIn.value) ? path.resolve(contextAbs, fileIn.value) : undefined;
  const found = foundBuildOf({
    tool: 'docker compose build',
    name: service,
    contextAbs,
    contextArg,
    ...(fileIn ? { fileArg: fileIn.value } : {}),
    ...(dockerfile ? { dockerfile } : {}),
    ...(stageIn?.value ? { stage: stageIn.value } : {}),
    args: args.map((a) => a.value),
    platforms: platforms.map((p) => p.value),
    tags,
    source: { file: ctx.file, line },
  });
  const name = `services.${service}`;
  return recipeOfBuild(ctx.root, { kind: 'compose', file: ctx.file, name, label: `${ctx.file} ${name}`, why: (t) => why(t) || undefined }, found, [], ctx.problems);
}

/** `args:` as a map (`K: V`) or a list (`K=V`; a bare `K` takes its value from the environment). */
function readArgs(ctx: Ctx, service: string, node: Node | undefined): { value: string; line: number }[] {
  if (node === undefined || node === null) return [];
  const out: { value: string; line: number }[] = [];
  const fromEnv = (k: string, line: number) => {
    const v = ctx.env.get(k);
    if (v !== undefined) out.push({ value: `${k}=${v}`, line });
    else ctx.problems.push({ file: ctx.file, line, code: 'compose-variable-unset', reason: `build arg ${k} of services.${service} takes its value from the environment, and .env does not set it` });
  };
  if (isMap(node)) {
    for (const p of node.items) {
      const k = isScalar(p.key) ? String(p.key.value) : '';
      const line = lineOf(ctx, p.key as Node);
      if (p.value === null || (isScalar(p.value) && p.value.value === null)) fromEnv(k, line);
      else if (isScalar(p.value)) out.push({ value: `${k}=${str(ctx, p.value, `build arg ${k}`)!.value}`, line });
    }
  } else if (isSeq(node)) {
    for (const i of node.items) {
      if (!isScalar(i)) continue;
      const v = str(ctx, i, `services.${service}.build.args`)!;
      if (v.value.includes('=')) out.push(v);
      else fromEnv(v.value, v.line);
    }
  } else ctx.problems.push({ file: ctx.file, line: lineOf(ctx, node), code: 'compose-build-unreadable', reason: `services.${service}.build.args is neither a mapping nor a list` });
  return out;
}

/** A scalar's text, interpolated; a malformed template is a problem. */
function str(ctx: Ctx, node: Node, what: string): { value: string; line: number } | undefined {
  if (!isScalar(node)) return undefined;
  const line = lineOf(ctx, node);
  const r = interpolateCompose(node.value === null ? '' : String(node.value), ctx.env);
  if (r.error) ctx.problems.push({ file: ctx.file, line, code: 'compose-interpolation-error', reason: `${what}: ${r.error}` });
  for (const u of r.unknowns) {
    ctx.unknowns.push({ marker: u.marker, reason: u.reason });
    if (u.required) ctx.problems.push({ file: ctx.file, line, code: 'compose-variable-unset', reason: `${what}: ${u.reason}` });
  }
  return { value: r.text, line };
}

function lineOf(ctx: Ctx, node: Node): number {
  return node.range ? ctx.lc.linePos(node.range[0]).line : 1;
}
