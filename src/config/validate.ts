/**
 * Check a parsed pinwatch.yaml against CONFIG_SPEC and turn it into plain values.
 * Every error is a PinwatchError('config-invalid') with the file and the line of
 * the offending key or value, quoting what was found (a short, escaped excerpt:
 * the file may be hostile) and saying what was expected. Paths and globs must
 * stay inside the repository.
 */
import { checkGlob as compileCheck, GlobSyntaxError } from '../util/glob.js';
import { isAlias, isMap, isScalar, isSeq, type LineCounter, type Node, type YAMLMap } from 'yaml';
import { PinwatchError } from '../errors.js';
import { lexicalPathProblem, resolveInsideRepo } from '../util/repo-path.js';
import type { FieldSpec } from './spec.js';
import { closestKey } from './suggest.js';

export interface ValidateContext {
  file: string;
  lineCounter: LineCounter;
  /** Repository root: when set, paths are also resolved (symlinks too) and must stay inside it. */
  root?: string;
}

/** Longest excerpt of config text quoted in a message. */
export const MAX_QUOTED_CHARS = 80;

/** `value` with control bytes escaped (JSON escapes, no quotes), cut to `max` characters with an ellipsis. */
export function excerpt(value: string, max = MAX_QUOTED_CHARS): string {
  const chars = [...value];
  const cut = chars.length <= max ? value : chars.slice(0, max).join('');
  return JSON.stringify(cut).slice(1, -1) + (cut === value ? '' : '…');
}

/** `value` JSON-quoted (control bytes escaped), cut to MAX_QUOTED_CHARS characters with an ellipsis and the full length. */
export function quote(value: string, max = MAX_QUOTED_CHARS): string {
  const chars = [...value];
  return chars.length <= max ? JSON.stringify(value) : `"${excerpt(value, max).slice(0, -1)}"… (${chars.length} characters)`;
}

type Plain = string | boolean | Plain[] | { [k: string]: Plain };

function lineOf(node: Node | null | undefined, ctx: ValidateContext): number | undefined {
  const start = node?.range?.[0];
  return start === undefined ? undefined : ctx.lineCounter.linePos(start).line;
}

function fail(ctx: ValidateContext, node: Node | null | undefined, message: string): never {
  throw new PinwatchError('config-invalid', message, { file: ctx.file, line: lineOf(node, ctx) });
}

function describeNode(node: Node | null | undefined): string {
  if (node == null) return 'nothing';
  if (isMap(node)) return 'a map';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) return node.value === null ? 'nothing' : `${typeof node.value} ${typeof node.value === 'string' ? quote(node.value) : JSON.stringify(node.value)}`;
  return 'an alias';
}

const EXPECTED: Record<FieldSpec['kind'], string> = {
  string: 'a string',
  boolean: 'true or false',
  enum: 'one of',
  list: 'a list',
  object: 'a map',
  map: 'a map',
};

function expectation(spec: FieldSpec): string {
  if (spec.kind === 'enum') return `one of ${spec.values.join(', ')}`;
  if (spec.kind === 'list' && spec.item.kind === 'string' && spec.item.glob) return 'a list of globs';
  if (spec.kind === 'list' && spec.item.kind === 'string') return 'a list of strings';
  return EXPECTED[spec.kind];
}

/** Validate `node` at `path` (dot-joined, for messages) against `spec`. */
export function validateNode(node: Node | null | undefined, spec: FieldSpec, path: string, ctx: ValidateContext): Plain {
  if (isAlias(node)) fail(ctx, node, `${path}: aliases are not supported in pinwatch.yaml; write the value out`);
  const wrong = (): never => fail(ctx, node, `${path || 'the top level'} must be ${expectation(spec)}; saw ${describeNode(node)}`);
  switch (spec.kind) {
    case 'string':
      return validateString(node, spec, path, ctx, wrong);
    case 'boolean':
      if (!isScalar(node) || typeof node.value !== 'boolean') return wrong();
      return node.value;
    case 'enum':
      if (!isScalar(node) || typeof node.value !== 'string' || !spec.values.includes(node.value)) return wrong();
      return node.value;
    case 'list':
      if (!isSeq(node)) return wrong();
      return node.items.map((item, i) => validateNode(item as Node, spec.item, `${path}[${i}]`, ctx));
    case 'object':
      if (spec.shorthand && (isSeq(node) || (isScalar(node) && spec.fields[spec.shorthand]!.kind === 'string'))) {
        const field = spec.fields[spec.shorthand]!;
        // a scalar standing for the whole object is reported at its own path (`writes[0]`, not `writes[0].file`)
        const at = isScalar(node) ? path : path ? `${path}.${spec.shorthand}` : spec.shorthand;
        return { [spec.shorthand]: validateNode(node, field, at, ctx) };
      }
      if (!isMap(node)) return wrong();
      return validateObject(node, spec, path, ctx);
    case 'map':
      if (!isMap(node)) return wrong();
      return validateMap(node, spec, path, ctx);
  }
}

function validateString(
  node: Node | null | undefined,
  spec: Extract<FieldSpec, { kind: 'string' }>,
  path: string,
  ctx: ValidateContext,
  wrong: () => never,
): string {
  if (!isScalar(node) || typeof node.value !== 'string') return wrong();
  const value = node.value;
  if (value.length === 0) fail(ctx, node, `${path} must not be empty`);
  if (spec.pattern && !spec.pattern.test(value)) fail(ctx, node, `${path}: ${quote(value)} is not ${spec.patternHint ?? spec.pattern.source}`);
  if (spec.glob) checkGlob(value, path, node, ctx);
  if (spec.repoPath) checkRepoPath(value, typeof spec.repoPath === 'function' ? spec.repoPath(value) : value, path, node, ctx);
  const problem = spec.check?.(value);
  if (problem) fail(ctx, node, `${path}: ${problem}`);
  return value;
}

/** A glob must compile, be repo-relative (not absolute, no `..`, no `~`) and use forward slashes. */
export function checkGlob(value: string, path: string, node: Node | null | undefined, ctx: ValidateContext): void {
  const expected = 'expected a repo-relative glob like packages/**/values.yaml';
  if (value.startsWith('/') || /^[A-Za-z]:[\\/]/.test(value)) fail(ctx, node, `${path}: ${quote(value)} is absolute; ${expected}`);
  if (value.split('/').includes('..')) fail(ctx, node, `${path}: ${quote(value)} leaves the repository; ${expected}`);
  if (value.startsWith('~')) fail(ctx, node, `${path}: ${quote(value)} starts with ~ (a home directory); ${expected}`);
  if (value.includes('\\')) fail(ctx, node, `${path}: ${quote(value)} contains a backslash; use forward slashes (${expected})`);
  try {
    compileCheck(value);
  } catch (e) {
    if (!(e instanceof GlobSyntaxError)) throw e;
    fail(ctx, node, `${path}: ${e.message}; ${expected}`);
  }
}

/** A path named by the config must stay inside the repository, also after resolving symlinks (when ctx.root is set). */
function checkRepoPath(value: string, part: string, path: string, node: Node | null | undefined, ctx: ValidateContext): void {
  const expected = 'expected a path inside the repository, relative to its root';
  const problem = lexicalPathProblem(part);
  if (problem) fail(ctx, node, `${path}: ${quote(value)} ${problem}; ${expected}`);
  if (!ctx.root) return;
  try {
    resolveInsideRepo(ctx.root, part);
  } catch (e) {
    if (!(e instanceof PinwatchError)) throw e;
    fail(ctx, node, `${path}: ${quote(value)} leads out of the repository through a symlink; ${expected}`);
  }
}

function keyOf(keyNode: unknown, path: string, ctx: ValidateContext): string {
  if (!isScalar(keyNode) || typeof keyNode.value !== 'string') {
    fail(ctx, keyNode as Node, `${path || 'pinwatch.yaml'}: keys must be strings; saw ${describeNode(keyNode as Node)}`);
  }
  return keyNode.value;
}

function validateObject(
  node: YAMLMap,
  spec: Extract<FieldSpec, { kind: 'object' }>,
  path: string,
  ctx: ValidateContext,
): { [k: string]: Plain } {
  const out: { [k: string]: Plain } = {};
  const valid = Object.keys(spec.fields);
  for (const pair of node.items) {
    const key = keyOf(pair.key, path, ctx);
    const full = path ? `${path}.${key}` : key;
    const field = spec.fields[key];
    if (!field) {
      const near = closestKey(key, valid);
      const hint = near ? `did you mean "${near}"?` : `valid keys: ${valid.join(', ')}`;
      fail(ctx, pair.key as Node, `unknown key ${quote(full)}; ${hint}`);
    }
    if (key in out) fail(ctx, pair.key as Node, `duplicate key ${quote(full)}`);
    out[key] = validateNode(pair.value as Node, field, full, ctx);
  }
  for (const req of spec.required ?? []) {
    if (!(req in out)) fail(ctx, node, `${path} is missing "${req}"`);
  }
  return out;
}

function validateMap(
  node: YAMLMap,
  spec: Extract<FieldSpec, { kind: 'map' }>,
  path: string,
  ctx: ValidateContext,
): { [k: string]: Plain } {
  const out: { [k: string]: Plain } = {};
  for (const pair of node.items) {
    const key = keyOf(pair.key, path, ctx);
    if (spec.keyPattern && !spec.keyPattern.test(key)) {
      fail(ctx, pair.key as Node, `${path}: key ${quote(key)} is not ${spec.keyHint ?? spec.keyPattern.source}`);
    }
    const keyProblem = spec.keyCheck?.(key);
    if (keyProblem) fail(ctx, pair.key as Node, `${path}: key ${keyProblem}`);
    const known = spec.knownKeys?.();
    if (known && !known.includes(key)) {
      const near = closestKey(key, known);
      const hint = near ? `did you mean "${near}"?` : `known ${spec.keyNoun ? `${spec.keyNoun}s` : 'keys'}: ${known.join(', ')}`;
      fail(ctx, pair.key as Node, `${path}: unknown ${spec.keyNoun ?? 'key'} ${quote(key)}; ${hint}`);
    }
    if (key in out) fail(ctx, pair.key as Node, `duplicate key ${quote(`${path}.${key}`)}`);
    out[key] = validateNode(pair.value as Node, spec.value, `${path}.${key}`, ctx);
  }
  return out;
}
