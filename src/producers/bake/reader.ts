/**
 * The docker-bake recipe reader: every `target` block of a docker-bake.hcl or
 * docker-bake.json as a BuildRecipe (context, dockerfile, tags, args, target
 * stage, platforms), with `inherits` chains merged (a cycle is a problem),
 * `variable` defaults and `${VAR}` interpolation evaluated, `target.x.attr`
 * references followed, and the `group`s that name a target noted. A variable
 * with no default (set from the environment when bake runs) is an unknown: a
 * tag whose repository stays known still names it. Function calls, `for`
 * expressions, operators and other HCL the reader does not evaluate are
 * problems with file:line wherever they decide a field pinwatch uses.
 */
import * as path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, type Node } from 'yaml';
import { parseYamlDocument } from '../../collect/index.js';
import { hasMarker, marker, readableMarkers } from '../../make/index.js';
import type { Problem } from '../../model/index.js';
import { recipeOfBuild } from '../assemble.js';
import { foundBuildOf } from '../build-command.js';
import type { BuildRecipe } from '../types.js';
import { HclSyntaxError, parseHcl, type HclAttribute, type HclBlock, type HclBody, type HclExpr } from './hcl.js';

/** An evaluated HCL value; an unknown part of a string is a marker (`⟨var TAG⟩`). */
export type BakeValue = string | number | boolean | null | BakeValue[] | { [k: string]: BakeValue };

/** Attributes merged from `inherits` key by key (the inheriting target's keys win); every other attribute is replaced whole. */
const MERGED_MAPS = new Set(['args', 'labels', 'contexts', 'annotations']);

/** Variables bake itself defines. */
const BUILTIN: Record<string, string> = {
  BAKE_CMD_CONTEXT: 'BAKE_CMD_CONTEXT is the context bake is run with, known only when it runs',
  BAKE_LOCAL_PLATFORM: 'BAKE_LOCAL_PLATFORM is the platform of the machine bake runs on',
};

interface Ctx {
  root: string;
  file: string;
  dir: string;
  problems: Problem[];
  variables: Map<string, HclBlock>;
  targets: Map<string, HclBlock[]>;
  unknowns: { marker: string; reason: string; unsupported?: boolean }[];
  evaluating: Set<string>;
  resolved: Map<string, Resolved | undefined>;
}

interface Attr {
  value: BakeValue;
  line: number;
}
type Resolved = Map<string, Attr>;

/** Recipes of one bake file (`file` repo-relative, `text` its content). */
export function readBake(root: string, file: string, text: string, problems: Problem[]): BuildRecipe[] {
  let body: HclBody;
  try {
    body = file.endsWith('.json') ? jsonBody(text) : parseHcl(text);
  } catch (e) {
    if (e instanceof HclSyntaxError) {
      problems.push({ file, line: e.line, code: 'bake-syntax-error', reason: `not valid ${file.endsWith('.json') ? 'JSON' : 'HCL'}, so its targets are not read: ${e.message}` });
      return [];
    }
    throw e;
  }
  const ctx: Ctx = {
    root,
    file,
    dir: path.posix.dirname(file),
    problems,
    variables: new Map(),
    targets: new Map(),
    unknowns: [],
    evaluating: new Set(),
    resolved: new Map(),
  };
  const groups: { name: string; block: HclBlock }[] = [];
  for (const b of body.blocks) {
    const name = b.labels[0];
    if (b.type === 'variable' || b.type === 'target' || b.type === 'group') {
      if (b.labels.length !== 1 || !name) {
        problems.push({ file, line: b.line, code: 'bake-block-unreadable', reason: `a ${b.type} block has one name label; this one has ${b.labels.length}, so it is not read` });
        continue;
      }
    }
    if (b.type === 'variable') ctx.variables.set(name!, b);
    else if (b.type === 'target') ctx.targets.set(name!, [...(ctx.targets.get(name!) ?? []), b]);
    else if (b.type === 'group') groups.push({ name: name!, block: b });
    else if (b.type !== 'function') problems.push({ file, line: b.line, code: 'bake-block-unreadable', reason: `"${b.type}" is not a bake block (variable, target, group, function), so it is not read` });
  }
  for (const a of body.attributes) {
    // Top-level attributes are variables too in bake (`TAG = "x"`).
    ctx.variables.set(a.name, { type: 'variable', labels: [a.name], body: { attributes: [{ name: 'default', value: a.value, line: a.line }], blocks: [] }, line: a.line });
  }

  const inGroups = new Map<string, string[]>();
  const groupNames = new Set(groups.map((g) => g.name));
  for (const g of groups) {
    const attr = lastAttr(g.block.body, 'targets');
    const list = attr ? stringList(ctx, evaluate(ctx, attr.value), 'targets', attr.line) : [];
    for (const t of list) {
      if (!ctx.targets.has(t) && !groupNames.has(t)) problems.push({ file, line: attr!.line, code: 'bake-target-unknown', reason: `group "${g.name}" names target "${t}", which no target or group block defines` });
      inGroups.set(t, [...(inGroups.get(t) ?? []), g.name]);
    }
  }
  // A group in a group: its targets are in the outer group too.
  const groupsOf = (member: string, seen: Set<string>): string[] => {
    const out: string[] = [];
    for (const g of inGroups.get(member) ?? []) {
      if (seen.has(g)) continue;
      seen.add(g);
      out.push(g, ...groupsOf(g, seen));
    }
    return out;
  };
  const allGroups = new Map([...ctx.targets.keys()].map((t) => [t, groupsOf(t, new Set())] as const));

  const inherited = new Set<string>();
  for (const name of ctx.targets.keys()) {
    const r = resolve(ctx, name, []);
    for (const p of r ? parents(ctx, name) : []) inherited.add(p);
  }
  const recipes: BuildRecipe[] = [];
  for (const [name, blocks] of ctx.targets) {
    const r = resolve(ctx, name, []);
    if (!r) continue;
    // A target other targets inherit, with no tags and in no group, is a template for them, not a build of its own.
    if (inherited.has(name) && !r.has('tags') && !inGroups.has(name)) continue;
    // An untagged target whose outputs are all files (a local directory, a tar, the cache) builds no image.
    if (!r.has('tags') && outputsNoImage(r.get('output')?.value)) continue;
    recipes.push(recipeOf(ctx, name, blocks[0]!.line, r, allGroups.get(name) ?? []));
  }
  return recipes;
}

/** The last attribute of that name in a body (HCL forbids two; bake's JSON merging keeps the last). */
function lastAttr(body: HclBody, name: string): HclAttribute | undefined {
  for (let i = body.attributes.length - 1; i >= 0; i--) if (body.attributes[i]!.name === name) return body.attributes[i];
  return undefined;
}

/** True when every `output` entry exports files, not an image: `./dir`, `type=local|tar|cacheonly`. */
function outputsNoImage(v: BakeValue | undefined): boolean {
  const list = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  if (list.length === 0) return false;
  return list.every((o) => {
    if (typeof o !== 'string' || hasMarker(o)) return false;
    const type = /(?:^|,)type=([a-z]+)/.exec(o)?.[1];
    return type ? ['local', 'tar', 'cacheonly'].includes(type) : !o.includes('=');
  });
}

function parents(ctx: Ctx, name: string): string[] {
  const out: string[] = [];
  for (const b of ctx.targets.get(name) ?? []) {
    const attr = lastAttr(b.body, 'inherits');
    if (attr) out.push(...stringList(ctx, evaluate(ctx, attr.value), 'inherits', attr.line));
  }
  return out;
}

/** A target's attributes after `inherits` (parents in order, then its own blocks); undefined on a cycle. */
function resolve(ctx: Ctx, name: string, chain: string[]): Resolved | undefined {
  if (ctx.resolved.has(name)) return ctx.resolved.get(name);
  const blocks = ctx.targets.get(name)!;
  if (chain.includes(name)) {
    ctx.problems.push({ file: ctx.file, line: blocks[0]!.line, code: 'bake-inherits-cycle', reason: `target "${name}" inherits itself (${[...chain, name].join(' → ')}), so none of these targets is read` });
    return undefined;
  }
  const out: Resolved = new Map();
  let broken = false;
  for (const b of blocks) {
    const inh = lastAttr(b.body, 'inherits');
    const list = inh ? stringList(ctx, evaluate(ctx, inh.value), 'inherits', inh.line) : [];
    for (const p of list) {
      if (!ctx.targets.has(p)) {
        ctx.problems.push({ file: ctx.file, line: inh!.line, code: 'bake-target-unknown', reason: `target "${name}" inherits "${p}", which no target block defines` });
        continue;
      }
      const pr = resolve(ctx, p, [...chain, name]);
      if (!pr) {
        broken = true;
        continue;
      }
      merge(out, pr);
    }
  }
  if (broken) {
    ctx.resolved.set(name, undefined);
    return undefined;
  }
  for (const b of blocks) {
    const own: Resolved = new Map();
    for (const a of b.body.attributes) {
      if (a.name === 'inherits') continue;
      own.set(a.name, { value: evaluate(ctx, a.value), line: a.line });
    }
    merge(out, own);
  }
  ctx.resolved.set(name, out);
  return out;
}

function merge(into: Resolved, from: Resolved): void {
  for (const [k, v] of from) {
    const old = into.get(k);
    if (MERGED_MAPS.has(k) && old && isObject(old.value) && isObject(v.value)) into.set(k, { value: { ...old.value, ...v.value }, line: v.line });
    else into.set(k, v);
  }
}

function isObject(v: BakeValue): v is { [k: string]: BakeValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function recipeOf(ctx: Ctx, name: string, line: number, r: Resolved, groups: string[]): BuildRecipe {
  const str = (key: string): { value: string; line: number } | undefined => {
    const a = r.get(key);
    if (!a || a.value === null) return undefined;
    if (typeof a.value === 'object') {
      ctx.problems.push({ file: ctx.file, line: a.line, code: 'bake-attribute-unreadable', reason: `${key} of target "${name}" is not a string` });
      return undefined;
    }
    return { value: String(a.value), line: a.line };
  };
  const list = (key: string): string[] => {
    const a = r.get(key);
    return a ? stringList(ctx, a.value, `${key} of target "${name}"`, a.line) : [];
  };
  const why = (text: string) => [...new Set(ctx.unknowns.filter((u) => text.includes(u.marker)).map((u) => u.reason))].join('; ');
  const report = (what: string, v: { value: string; line: number } | undefined) => {
    // An expression the reader does not evaluate is already its own bake-unsupported problem.
    const causes = ctx.unknowns.filter((u) => v?.value.includes(u.marker));
    if (v && hasMarker(v.value) && causes.some((u) => !u.unsupported)) ctx.problems.push({ file: ctx.file, line: v.line, code: 'bake-value-unknown', reason: `${what} "${readableMarkers(v.value)}" of target "${name}" cannot be evaluated: ${why(v.value)}` });
  };
  for (const key of ['matrix', 'dockerfile-inline', 'contexts']) {
    const a = r.get(key);
    if (!a) continue;
    const reason =
      key === 'matrix'
        ? `target "${name}" has a matrix, which pinwatch does not expand; it is read once, as written`
        : key === 'dockerfile-inline'
          ? `target "${name}" has an inline Dockerfile, whose COPY sources are not read as build inputs`
          : `named contexts of target "${name}" (${Object.keys(isObject(a.value) ? a.value : {}).join(', ')}) are not read as build inputs`;
    ctx.problems.push({ file: ctx.file, line: a.line, code: 'bake-attribute-unsupported', reason });
  }
  const contextIn = str('context');
  const fileIn = str('dockerfile');
  const stageIn = str('target');
  const tags = list('tags');
  const platforms = list('platforms');
  const argsAttr = r.get('args');
  const args: string[] = [];
  if (argsAttr && isObject(argsAttr.value)) {
    for (const [k, v] of Object.entries(argsAttr.value)) {
      if (v === null) continue;
      const text = typeof v === 'object' ? JSON.stringify(v) : String(v);
      // a value known only when bake runs is no problem: the Dockerfile's ARG has no value then (sources/derive.ts)
      args.push(`${k}=${text}`);
    }
  } else if (argsAttr) ctx.problems.push({ file: ctx.file, line: argsAttr.line, code: 'bake-attribute-unreadable', reason: `args of target "${name}" is not a map` });
  report('target', stageIn);
  for (const p of platforms) report('platform', { value: p, line: r.get('platforms')!.line });

  let contextArg = (contextIn?.value ?? '.').replace(/^cwd:\/\//, '');
  const remote = /^[a-z]+:\/\//.test(contextArg) || contextArg.startsWith('git@') || /^target:/.test(contextArg);
  const contextAbs = remote || hasMarker(contextArg) ? '' : path.resolve(ctx.root, ctx.dir, contextArg);
  const fileArg = fileIn?.value.replace(/^cwd:\/\//, '');
  const dockerfile = fileArg && contextAbs ? path.resolve(fileIn!.value.startsWith('cwd://') ? path.resolve(ctx.root, ctx.dir) : contextAbs, fileArg) : undefined;
  if (contextArg === '') contextArg = '.';
  const build = foundBuildOf({
    tool: 'docker buildx bake',
    name,
    contextAbs,
    contextArg,
    ...(fileArg ? { fileArg } : {}),
    ...(dockerfile ? { dockerfile } : {}),
    ...(stageIn?.value ? { stage: stageIn.value } : {}),
    args,
    platforms,
    tags,
    source: { file: ctx.file, line },
  });
  const label = `target "${name}"${groups.length ? ` (group ${groups.join(', ')})` : ''}`;
  return recipeOfBuild(ctx.root, { kind: 'bake', file: ctx.file, name: label, label: `${ctx.file} ${label}`, why: (t) => why(t) || undefined }, build, [], ctx.problems);
}

/** A list of strings (a single string counts as a one-item list); anything else is a problem. */
function stringList(ctx: Ctx, v: BakeValue, what: string, line: number): string[] {
  if (v === null) return [];
  const items = Array.isArray(v) ? v : [v];
  const out: string[] = [];
  for (const i of items) {
    if (typeof i === 'string' || typeof i === 'number' || typeof i === 'boolean') out.push(String(i));
    else ctx.problems.push({ file: ctx.file, line, code: 'bake-attribute-unreadable', reason: `${what}: an item is not a string (${JSON.stringify(i)})` });
  }
  return out;
}

function evaluate(ctx: Ctx, e: HclExpr): BakeValue {
  switch (e.kind) {
    case 'literal':
      return e.value;
    case 'tuple':
      return e.items.map((i) => evaluate(ctx, i));
    case 'object':
      return Object.fromEntries(e.entries.map((x) => [x.key, evaluate(ctx, x.value)]));
    case 'template': {
      if (e.parts.length === 1 && typeof e.parts[0] !== 'string') {
        // `"${X}"` is X itself in HCL (a list stays a list).
        return evaluate(ctx, e.parts[0]!);
      }
      return e.parts
        .map((p) => {
          if (typeof p === 'string') return p;
          const v = evaluate(ctx, p);
          if (v === null) return '';
          if (typeof v === 'object') return unknown(ctx, 'value', 'list', `a list or map cannot be interpolated into a string (line ${p.line})`);
          return String(v);
        })
        .join('');
    }
    case 'variable':
      return variable(ctx, e);
    case 'unsupported': {
      ctx.problems.push({ file: ctx.file, line: e.line, code: 'bake-unsupported', reason: `${e.what} "${shortText(e.text)}" is not evaluated by pinwatch's bake reader` });
      return unknown(ctx, 'bake', e.text, `${e.what} (line ${e.line}) is not evaluated`, true);
    }
  }
}

function variable(ctx: Ctx, e: Extract<HclExpr, { kind: 'variable' }>): BakeValue {
  const [head, ...rest] = e.path;
  if (head === 'target' && rest.length === 2) {
    const [t, attr] = rest as [string, string];
    if (!ctx.targets.has(t)) {
      ctx.problems.push({ file: ctx.file, line: e.line, code: 'bake-target-unknown', reason: `target.${t}.${attr}: no target "${t}" is defined` });
      return unknown(ctx, 'bake', e.path.join('.'), `no target "${t}"`);
    }
    const r = resolve(ctx, t, []);
    return r?.get(attr)?.value ?? null;
  }
  if (rest.length > 0) {
    ctx.problems.push({ file: ctx.file, line: e.line, code: 'bake-unsupported', reason: `reference "${e.path.join('.')}" is not evaluated by pinwatch's bake reader` });
    return unknown(ctx, 'bake', e.path.join('.'), `reference ${e.path.join('.')} is not evaluated`);
  }
  const name = head!;
  const block = ctx.variables.get(name);
  if (!block) {
    if (BUILTIN[name]) return unknown(ctx, 'var', name, BUILTIN[name]!);
    ctx.problems.push({ file: ctx.file, line: e.line, code: 'bake-variable-undefined', reason: `variable "${name}" is not defined by a variable block of this file` });
    return unknown(ctx, 'var', name, `variable ${name} is not defined`);
  }
  const def = lastAttr(block.body, 'default');
  if (!def) return unknown(ctx, 'var', name, `variable ${name} has no default: its value is set from the environment when bake runs`);
  if (ctx.evaluating.has(name)) {
    ctx.problems.push({ file: ctx.file, line: def.line, code: 'bake-variable-cycle', reason: `the default of variable "${name}" refers to itself` });
    return unknown(ctx, 'var', name, `variable ${name} refers to itself`);
  }
  ctx.evaluating.add(name);
  try {
    return evaluate(ctx, def.value);
  } finally {
    ctx.evaluating.delete(name);
  }
}

function unknown(ctx: Ctx, kind: string, detail: string, reason: string, unsupported?: boolean): string {
  const m = marker(kind, detail);
  ctx.unknowns.push({ marker: m, reason: `${readableMarkers(m)}: ${reason}`, ...(unsupported ? { unsupported } : {}) });
  return m;
}

/** An expression's text for a message: its first line, at most 80 characters. */
function shortText(text: string): string {
  const first = text.split('\n')[0]!.trim();
  return first.length > 80 || first !== text.trim() ? `${first.slice(0, 77)} …` : first;
}

/** A docker-bake.json file as the same body: `variable`, `group`, `target` objects of named objects; strings are templates. */
function jsonBody(text: string): HclBody {
  const lc = new LineCounter();
  const doc = parseYamlDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: false });
  if (doc.errors.length > 0) throw new HclSyntaxError(doc.errors[0]!.message.split('\n')[0]!, lc.linePos(doc.errors[0]!.pos[0]).line);
  const lineOf = (n: Node | null | undefined) => (n?.range ? lc.linePos(n.range[0]).line : 1);
  const top = doc.contents;
  const body: HclBody = { attributes: [], blocks: [] };
  if (!isMap(top)) throw new HclSyntaxError('a bake JSON file is an object', lineOf(top as Node | null));
  const expr = (n: unknown): HclExpr => {
    const line = lineOf(n as Node);
    if (isSeq(n)) return { kind: 'tuple', items: n.items.map(expr), line };
    if (isMap(n)) return { kind: 'object', entries: n.items.map((p) => ({ key: String(isScalar(p.key) ? p.key.value : p.key), value: expr(p.value), line: lineOf(p.key as Node) })), line };
    const v = isScalar(n) ? n.value : null;
    if (typeof v === 'string') {
      const t = parseHcl(`x = "${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"\n`).attributes[0]!.value;
      const shift = (p: string | HclExpr) => (typeof p === 'string' ? p : { ...p, line });
      return t.kind === 'template' ? { ...t, parts: t.parts.map(shift), line } : { ...t, line };
    }
    return { kind: 'literal', value: typeof v === 'number' || typeof v === 'boolean' ? v : null, line };
  };
  for (const pair of top.items) {
    const type = String(isScalar(pair.key) ? pair.key.value : '');
    if (!isMap(pair.value)) {
      body.attributes.push({ name: type, value: expr(pair.value), line: lineOf(pair.key as Node) });
      continue;
    }
    for (const named of pair.value.items) {
      const name = String(isScalar(named.key) ? named.key.value : '');
      const attrs = isMap(named.value) ? named.value.items : [];
      body.blocks.push({
        type,
        labels: [name],
        line: lineOf(named.key as Node),
        body: { attributes: attrs.map((a) => ({ name: String(isScalar(a.key) ? a.key.value : ''), value: expr(a.value), line: lineOf(a.key as Node) })), blocks: [] },
      });
    }
  }
  return body;
}
