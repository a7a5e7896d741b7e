/**
 * The expander: `$(VAR)`, `${VAR}`, `$X`, `$$`, substitution references
 * (`$(VAR:.c=.o)`) and function calls (table in functions.ts). What cannot be
 * known becomes a marker (markers.ts); nothing here throws on odd input.
 *
 * expand.ts and functions.ts import each other on purpose: the one deliberate
 * import cycle in src/. It is the interpreter's mutual recursion — `$(call …)`
 * and `$(foreach …)` expand their arguments, and expansion calls functions —
 * the way GNU Make's own expand.c and function.c do.
 */
import { callFunctionWith, functionArguments, isFunctionName } from './functions.js';
import { marker } from './markers.js';
import { fillPattern, findClose, indexTopLevel, matchPattern, words } from './scan.js';
import type { VariableStore } from './variables.js';

export interface ExpandContext {
  vars: VariableStore;
  /** `$(eval TEXT)`: read TEXT as makefile lines in this context. Absent → marker. */
  evalText?: (text: string, ctx: ExpandContext) => void;
  /** Report something the expander had to guess or could not do. */
  note?: (code: string, reason: string) => void;
  /** Names being expanded right now (guards `X = $(X)`). */
  active?: Set<string>;
  /** User functions `$(call)`ed right now with a marker among their arguments, and how deep (functions.ts call). */
  calls?: Map<string, number>;
  depth?: number;
}

const MAX_DEPTH = 200;

/**
 * A text cut into what expansion does with it, which depends on the text alone: literal runs (`$$` already one
 * `$`), `$X`, and `$(…)`/`${…}` references already told apart (a function call with its arguments split, a
 * substitution reference, a variable name to expand), and an unterminated reference that ends it.
 */
type Piece =
  | string
  | { kind: 'var'; name: string }
  | { kind: 'fn'; name: string; args: readonly string[] }
  | { kind: 'subst'; name: string; from: string; to: string }
  | { kind: 'ref'; inner: string }
  | { kind: 'unterminated'; reason: string; rest: string };

/** The pieces of recently expanded texts: the same texts (variable values, recipe lines) expand in every reading. */
const templates = new Map<string, readonly Piece[]>();
const TEMPLATES_MAX = 8192;

function template(text: string): readonly Piece[] {
  let pieces = templates.get(text);
  if (!pieces) {
    if (templates.size >= TEMPLATES_MAX) templates.clear();
    templates.set(text, (pieces = Object.freeze(cut(text))));
  }
  return pieces;
}

function cut(text: string): Piece[] {
  const pieces: Piece[] = [];
  let lit = '';
  let i = 0;
  while (i < text.length) {
    const d = text.indexOf('$', i);
    if (d === -1) {
      lit += text.slice(i);
      break;
    }
    lit += text.slice(i, d);
    const next = text[d + 1];
    if (next === undefined) {
      lit += '$';
      break;
    }
    if (next === '$') {
      lit += '$';
      i = d + 2;
      continue;
    }
    if (lit !== '') pieces.push(lit);
    lit = '';
    if (next === '(' || next === '{') {
      const close = findClose(text, d + 1);
      if (close === -1) {
        const reason = `unterminated variable reference in "${text.slice(d, d + 40)}"; expected a closing "${next === '(' ? ')' : '}'}"`;
        pieces.push({ kind: 'unterminated', reason, rest: text.slice(d + 2) });
        return pieces;
      }
      pieces.push(reference(text.slice(d + 2, close)));
      i = close + 1;
    } else {
      pieces.push({ kind: 'var', name: next });
      i = d + 2;
    }
  }
  if (lit !== '') pieces.push(lit);
  return pieces;
}

/** Inside of `$(…)`: a function call, a substitution reference or a (computed) variable name. */
function reference(inner: string): Piece {
  const fn = /^([a-z-]+)[ \t]/.exec(inner);
  if (fn && isFunctionName(fn[1]!)) return { kind: 'fn', name: fn[1]!, args: Object.freeze(functionArguments(fn[1]!, inner.slice(fn[0].length))) };
  const colon = indexTopLevel(inner, ':');
  if (colon !== -1) {
    const eq = inner.indexOf('=', colon);
    if (eq !== -1) return { kind: 'subst', name: inner.slice(0, colon), from: inner.slice(colon + 1, eq), to: inner.slice(eq + 1) };
  }
  return { kind: 'ref', inner };
}

export function expand(text: string, ctx: ExpandContext): string {
  if (!text.includes('$')) return text;
  if ((ctx.depth ?? 0) > MAX_DEPTH) {
    ctx.note?.('make-expansion-too-deep', `expansion nested deeper than ${MAX_DEPTH} levels in "${text.slice(0, 60)}"`);
    return marker('too-deep');
  }
  let out = '';
  const pieces = template(text);
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    if (typeof p === 'string') out += p;
    else if (p.kind === 'var') out += lookupVariable(p.name, ctx);
    else if (p.kind === 'fn') out += callFunctionWith(p.name, p.args, ctx, expandChild);
    else if (p.kind === 'ref') out += lookupVariable(expandChild(p.inner, ctx), ctx);
    else if (p.kind === 'subst') {
      const name = expandChild(p.name, ctx);
      const from = expandChild(p.from, ctx);
      const to = expandChild(p.to, ctx);
      out += substitutionReference(lookupVariable(name, ctx), from, to);
    } else {
      ctx.note?.('make-unterminated-reference', p.reason);
      out += marker('unterminated', p.rest);
    }
  }
  return out;
}

function substitutionReference(value: string, from: string, to: string): string {
  const pattern = from.includes('%') ? from : `%${from}`;
  const replacement = from.includes('%') ? to : `%${to}`;
  return words(value)
    .map((w) => {
      const stem = matchPattern(pattern, w);
      return stem === undefined ? w : fillPattern(replacement, stem);
    })
    .join(' ');
}

export function expandChild(text: string, ctx: ExpandContext): string {
  if (!text.includes('$')) return text;
  return expand(text, { ...ctx, depth: (ctx.depth ?? 0) + 1 });
}

/** Value of a variable by name; recursive variables are expanded, undefined ones are empty. */
export function lookupVariable(name: string, ctx: ExpandContext): string {
  const auto = automaticVariant(name, ctx);
  if (auto !== undefined) return auto;
  const v = ctx.vars.get(name);
  if (!v) return '';
  if (v.flavor === 'simple') return v.value;
  const active = ctx.active ?? new Set<string>();
  if (active.has(name)) {
    ctx.note?.('make-recursive-variable', `recursive variable "${name}" references itself`);
    return marker('recursive', name);
  }
  active.add(name);
  try {
    return expand(v.value, { ...ctx, active, depth: (ctx.depth ?? 0) + 1 });
  } finally {
    active.delete(name);
  }
}

/** `$(@D)`, `$(@F)`, `$(<D)`, … derived from the automatic variable. */
function automaticVariant(name: string, ctx: ExpandContext): string | undefined {
  const m = /^([@<^*+?|%])([DF])$/.exec(name);
  if (!m) return undefined;
  const base = ctx.vars.get(m[1]!)?.value ?? '';
  return words(base)
    .map((w) => {
      const slash = w.lastIndexOf('/');
      if (m[2] === 'D') return slash === -1 ? '.' : w.slice(0, slash) || '/';
      return w.slice(slash + 1);
    })
    .join(' ');
}
