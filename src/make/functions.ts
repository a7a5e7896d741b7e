/**
 * GNU Make's built-in functions. Text functions are computed; `shell`,
 * `wildcard` and the like leave a marker; `eval` hands text back to the reader
 * through the context. Arguments arrive unexpanded so `if`/`and`/`or`/
 * `foreach`/`call` can expand lazily, as Make does.
 */
import * as path from 'node:path';
import type { ExpandContext } from './expand.js';
import { lookupVariable } from './expand.js';
import { hasMarker, marker } from './markers.js';
import { fillPattern, matchPattern, splitTopLevel, words } from './scan.js';

type Expand = (text: string, ctx: ExpandContext) => string;
type Fn = (args: string[], ctx: ExpandContext, x: Expand) => string;

interface FunctionSpec {
  /** Maximum argument count: the last argument keeps any further commas. */
  max: number;
  run: Fn;
}

const ev = (args: string[], ctx: ExpandContext, x: Expand) => args.map((a) => x(a, ctx));

function text(run: (a: string[]) => string, max: number): FunctionSpec {
  return { max, run: (args, ctx, x) => run(ev(args, ctx, x)) };
}

const unknown = (kind: string): FunctionSpec => ({ max: Infinity, run: (args, ctx, x) => marker(kind, ev(args, ctx, x).join(',')) });

const FUNCTIONS: Record<string, FunctionSpec> = {
  subst: text(([from = '', to = '', t = '']) => (from === '' ? t : t.split(from).join(to)), 3),
  patsubst: text(([p = '', r = '', t = '']) => words(t).map((w) => substituteWord(p, r, w)).join(' '), 3),
  strip: text(([t = '']) => words(t).join(' '), 1),
  findstring: text(([find = '', t = '']) => (t.includes(find) ? find : ''), 2),
  filter: text(([ps = '', t = '']) => words(t).filter((w) => words(ps).some((p) => matchPattern(p, w) !== undefined)).join(' '), 2),
  'filter-out': text(([ps = '', t = '']) => words(t).filter((w) => !words(ps).some((p) => matchPattern(p, w) !== undefined)).join(' '), 2),
  sort: text(([t = '']) => [...new Set(words(t))].sort().join(' '), 1),
  word: text(([n = '', t = '']) => words(t)[Number.parseInt(n, 10) - 1] ?? '', 2),
  wordlist: text(([s = '', e = '', t = '']) => words(t).slice(Number.parseInt(s, 10) - 1, Number.parseInt(e, 10)).join(' '), 3),
  words: text(([t = '']) => String(words(t).length), 1),
  firstword: text(([t = '']) => words(t)[0] ?? '', 1),
  lastword: text(([t = '']) => words(t).at(-1) ?? '', 1),
  dir: text(([t = '']) => words(t).map((w) => (w.includes('/') ? w.slice(0, w.lastIndexOf('/') + 1) : './')).join(' '), 1),
  notdir: text(([t = '']) => words(t).map((w) => w.slice(w.lastIndexOf('/') + 1)).join(' '), 1),
  suffix: text(([t = '']) => words(t).map(suffixOf).filter((s) => s !== '').join(' '), 1),
  basename: text(([t = '']) => words(t).map((w) => w.slice(0, w.length - suffixOf(w).length)).join(' '), 1),
  addprefix: text(([p = '', t = '']) => words(t).map((w) => p + w).join(' '), 2),
  addsuffix: text(([s = '', t = '']) => words(t).map((w) => w + s).join(' '), 2),
  join: text(([a = '', b = '']) => joinWords(words(a), words(b)), 2),
  abspath: { max: 1, run: (args, ctx, x) => absolute(x(args[0] ?? '', ctx), ctx) },
  realpath: { max: 1, run: (args, ctx, x) => absolute(x(args[0] ?? '', ctx), ctx) },
  if: { max: 3, run: ([c = '', a = '', b = ''], ctx, x) => (x(c, ctx).trim() !== '' ? x(a, ctx) : x(b, ctx)) },
  or: { max: Infinity, run: (args, ctx, x) => firstNonEmpty(args, ctx, x) },
  and: { max: Infinity, run: (args, ctx, x) => allNonEmpty(args, ctx, x) },
  foreach: { max: 3, run: foreach },
  call: { max: Infinity, run: call },
  value: { max: 1, run: ([n = ''], ctx, x) => ctx.vars.get(x(n, ctx))?.value ?? '' },
  origin: { max: 1, run: ([n = ''], ctx, x) => ctx.vars.peek(x(n, ctx))?.origin ?? 'undefined' },
  flavor: { max: 1, run: ([n = ''], ctx, x) => ctx.vars.peek(x(n, ctx))?.flavor ?? 'undefined' },
  eval: { max: 1, run: evalFunction },
  info: { max: 1, run: () => '' },
  warning: { max: 1, run: () => '' },
  error: {
    max: 1,
    run: ([m = ''], ctx, x) => {
      const msg = x(m, ctx);
      ctx.note?.('make-error-function', `$(error ${msg}) would stop make here`);
      return marker('error', msg);
    },
  },
  shell: {
    max: 1,
    run: ([c = ''], ctx, x) => {
      const command = x(c, ctx);
      return knownShell(command, ctx) ?? marker('shell', command);
    },
  },
  wildcard: unknown('wildcard'),
  file: unknown('file'),
  guile: unknown('guile'),
  let: unknown('let'),
  intcmp: unknown('intcmp'),
};

export function isFunctionName(name: string): boolean {
  return Object.hasOwn(FUNCTIONS, name);
}

export function callFunction(name: string, rawArgs: string, ctx: ExpandContext, x: Expand): string {
  return callFunctionWith(name, functionArguments(name, rawArgs), ctx, x);
}

/** A function call's raw argument text split into its (unexpanded) arguments. */
export function functionArguments(name: string, rawArgs: string): string[] {
  return splitTopLevel(rawArgs, ',', FUNCTIONS[name]!.max);
}

/** callFunction with the arguments already split (functionArguments): read only. */
export function callFunctionWith(name: string, args: readonly string[], ctx: ExpandContext, x: Expand): string {
  return FUNCTIONS[name]!.run(args as string[], ctx, x);
}

function substituteWord(pattern: string, replacement: string, word: string): string {
  const stem = matchPattern(pattern, word);
  return stem === undefined ? word : fillPattern(replacement, stem);
}

function suffixOf(word: string): string {
  const base = word.slice(word.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot === -1 ? '' : base.slice(dot);
}

function joinWords(a: string[], b: string[]): string {
  const n = Math.max(a.length, b.length);
  return Array.from({ length: n }, (_, i) => (a[i] ?? '') + (b[i] ?? '')).join(' ');
}

/**
 * The few commands whose output make's own state tells: `pwd` (`-P`, `-L`) prints the directory
 * make runs in (CURDIR): gateway's `ROOT_DIR := $(shell pwd -P)`. Anything else is a marker.
 */
function knownShell(command: string, ctx: ExpandContext): string | undefined {
  if (!/^\s*pwd(?:\s+-[LP])?\s*$/.test(command)) return undefined;
  return lookupVariable('CURDIR', ctx) || undefined;
}

function absolute(t: string, ctx: ExpandContext): string {
  const cwd = lookupVariable('CURDIR', ctx) || '/';
  return words(t).map((w) => path.posix.resolve(cwd, w)).join(' ');
}

function firstNonEmpty(args: string[], ctx: ExpandContext, x: Expand): string {
  for (const a of args) {
    const v = x(a, ctx).trim();
    if (v !== '') return v;
  }
  return '';
}

function allNonEmpty(args: string[], ctx: ExpandContext, x: Expand): string {
  let last = '';
  for (const a of args) {
    last = x(a, ctx).trim();
    if (last === '') return '';
  }
  return last;
}

function foreach([name = '', list = '', body = '']: string[], ctx: ExpandContext, x: Expand): string {
  const varName = x(name, ctx).trim();
  return words(x(list, ctx))
    .map((w) => {
      const scope = ctx.vars.child();
      scope.setSimple(varName, w);
      return x(body, { ...ctx, vars: scope });
    })
    .join(' ');
}

function call(args: string[], ctx: ExpandContext, x: Expand): string {
  const [rawName = '', ...params] = args;
  const name = x(rawName, ctx).trim();
  const scope = ctx.vars.child();
  scope.setSimple('0', name);
  const values = params.map((p) => x(p, ctx));
  for (let i = 1; i <= Math.max(values.length, 9); i++) scope.setSimple(String(i), values[i - 1] ?? '');
  if (isFunctionName(name)) return callFunction(name, params.join(','), ctx, x);
  const v = ctx.vars.get(name);
  if (!v) return '';
  if (v.flavor === 'simple') return v.value;
  // a function recursing over a value only the run knows (flux2's `rwildcard` over `$(wildcard …)`) would never end here,
  // while make's ends when the listing runs out: past a few levels, its value is unknown too
  if (!values.some(hasMarker)) return x(v.value, { ...ctx, vars: scope });
  const calls = (ctx.calls ??= new Map<string, number>());
  const depth = calls.get(name) ?? 0;
  if (depth >= MARKER_RECURSION) return marker('call', `${name} over ${values.find(hasMarker)}`);
  calls.set(name, depth + 1);
  try {
    return x(v.value, { ...ctx, vars: scope });
  } finally {
    calls.set(name, depth);
  }
}

/** How deep a user function may call itself with a marker among its arguments. */
const MARKER_RECURSION = 3;

function evalFunction([t = '']: string[], ctx: ExpandContext, x: Expand): string {
  const body = x(t, ctx);
  if (!ctx.evalText) return marker('eval', body);
  ctx.evalText(body, ctx);
  return '';
}
