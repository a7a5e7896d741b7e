/**
 * The Google Cloud Build recipe reader: every step of a cloudbuild.yaml whose
 * builder or entrypoint runs `docker build` / `docker buildx build`, `ko` or
 * `make` (also through `bash -c` / `script:`), read by the shared command parser
 * as a BuildRecipe, with substitutions applied, the step's `env:` (over
 * `options.env`) set and its `dir:` (relative to /workspace, the repository
 * root) as the working directory. `make` steps are handed to the caller to
 * follow into the Makefile reader.
 */
import * as path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, type Node, type YAMLMap } from 'yaml';
import { parseYamlDocument } from '../../collect/index.js';
import type { ExpandedCommand } from '../../make/index.js';
import type { Problem } from '../../model/index.js';
import { recipesOfBuild, type RecipeOrigin } from '../assemble.js';
import { readCommands } from '../commands.js';
import type { RecipeReadOptions } from '../types.js';
import type { BuildRecipe } from '../types.js';
import { substituter } from './substitutions.js';

export type CloudBuildReadOptions = RecipeReadOptions;

const SHELLS = new Set(['bash', 'sh', '/bin/bash', '/bin/sh']);

function shellQuote(w: string): string {
  return `'${w.replace(/'/g, `'\\''`)}'`;
}

/** The program a builder image runs when the step sets no entrypoint: its last path element (`gcr.io/cloud-builders/docker` → docker). */
function defaultEntrypoint(image: string): string {
  const last = image.split('/').at(-1) ?? image;
  return last.split(/[:@]/)[0]!;
}

export function readCloudBuild(root: string, file: string, text: string, problems: Problem[], options: CloudBuildReadOptions = {}): BuildRecipe[] {
  const lc = new LineCounter();
  const doc = parseYamlDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: false });
  const lineOf = (n: unknown) => ((n as Node | undefined)?.range ? lc.linePos((n as Node).range![0]).line : 1);
  if (doc.errors.length > 0) {
    problems.push({ file, line: lc.linePos(doc.errors[0]!.pos[0]).line, code: 'cloudbuild-yaml-error', reason: `not valid YAML, so its builds are not read: ${doc.errors[0]!.message.split('\n')[0]}` });
    return [];
  }
  const top = doc.contents;
  const steps = isMap(top) ? top.get('steps', true) : undefined;
  if (!isMap(top) || !isSeq(steps)) {
    problems.push({ file, line: lineOf(top), code: 'cloudbuild-unreadable', reason: 'a Cloud Build config is a mapping with steps:; this file is not, so its builds are not read' });
    return [];
  }
  const defaults = new Map<string, string>();
  const subs = top.get('substitutions', true);
  if (isMap(subs)) for (const pair of subs.items) if (isScalar(pair.key) && isScalar(pair.value)) defaults.set(String(pair.key.value), String(pair.value.value ?? ''));
  const sub = substituter(defaults, options.env ?? new Map());
  const optionsEnv = envList((top.get('options', true) as YAMLMap | undefined)?.get?.('env', true), sub.apply);
  const out: BuildRecipe[] = [];
  steps.items.forEach((step, index) => {
    if (!isMap(step)) return;
    const nameNode = step.get('name', true);
    if (!isScalar(nameNode) || typeof nameNode.value !== 'string') {
      problems.push({ file, line: lineOf(step), code: 'cloudbuild-unreadable', reason: `steps[${index}] has no builder name:, so it is not read` });
      return;
    }
    const idNode = step.get('id');
    const label = `steps[${index}]${typeof idNode === 'string' ? ` "${idNode}"` : ''}`;
    const env = new Map<string, string>([...(options.env ?? []), ...optionsEnv, ...envList(step.get('env', true), sub.apply)]);
    const dirNode = step.get('dir', true);
    const dir = isScalar(dirNode) ? sub.apply(String(dirNode.value)) : '.';
    const cwd = path.resolve(root, dir);
    const entryNode = step.get('entrypoint', true);
    const entrypoint = isScalar(entryNode) && entryNode.value ? sub.apply(String(entryNode.value)) : defaultEntrypoint(nameNode.value);
    const argsNode = step.get('args', true);
    const args = isSeq(argsNode) ? argsNode.items.map((a) => sub.apply(isScalar(a) ? String(a.value ?? '') : '')) : [];
    const scriptNode = step.get('script', true);
    let commands: ExpandedCommand[];
    const line = lineOf(nameNode);
    if (isScalar(scriptNode)) commands = scriptLines(sub.apply(String(scriptNode.value ?? '')), lineOf(scriptNode), scriptNode.type === 'BLOCK_LITERAL');
    else if (SHELLS.has(entrypoint) && args[0] === '-c' && args[1] !== undefined) {
      const scriptArg = isSeq(argsNode) ? argsNode.items[1] : undefined;
      commands = scriptLines(args[1], lineOf(scriptArg ?? nameNode), isScalar(scriptArg) && scriptArg.type === 'BLOCK_LITERAL');
    }
    else commands = [{ text: [entrypoint, ...args].map(shellQuote).join(' '), file, line }];
    for (const c of commands) c.file = file;
    const facts = readCommands(commands, cwd, { env, oneShell: true, cwdFromSlash: path.isAbsolute(dir) });
    const why = (t: string) => [...new Set(sub.unknowns.filter((u) => t.includes(u.marker)).map((u) => u.reason))].join('; ') || undefined;
    const origin: RecipeOrigin = { kind: 'cloudbuild', file, name: label, label: `${file}:${line} ${label}`, why };
    for (const b of facts.builds) out.push(...recipesOfBuild(root, origin, b, [], problems));
    for (const m of facts.makes) options.makes?.push({ make: m, env, label: `${file}:${m.source.line} ${label}`, kind: 'cloudbuild' });
  });
  return out;
}

/** `env: ['K=V', …]` as a map, each substituted. */
function envList(node: unknown, apply: (t: string) => string): Map<string, string> {
  const env = new Map<string, string>();
  if (!isSeq(node)) return env;
  for (const item of node.items) {
    if (!isScalar(item)) continue;
    const text = apply(String(item.value ?? ''));
    const eq = text.indexOf('=');
    if (eq > 0) env.set(text.slice(0, eq), text.slice(eq + 1));
  }
  return env;
}

/** A script's lines, `\` continuations joined, each with its file line. */
function scriptLines(text: string, start: number, block: boolean): ExpandedCommand[] {
  const out: ExpandedCommand[] = [];
  let pending: { text: string; line: number } | undefined;
  text.split('\n').forEach((raw, i) => {
    const line = block ? start + 1 + i : start;
    const joined = pending ? `${pending.text} ${raw.trimStart()}` : raw;
    const at = pending?.line ?? line;
    if (/(^|[^\\])(\\\\)*\\$/.test(raw)) {
      pending = { text: joined.slice(0, -1), line: at };
      return;
    }
    pending = undefined;
    if (joined.trim() !== '') out.push({ text: joined.trim(), file: '', line: at });
  });
  if (pending) out.push({ text: pending.text.trim(), file: '', line: pending.line });
  return out;
}

