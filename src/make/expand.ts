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
import { callFunction, isFunctionName } from './functions.js';
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
  depth?: number;
}

const MAX_DEPTH = 200;

export function expand(text: string, ctx: ExpandContext): string {
  if (!text.includes('$')) return text;
  if ((ctx.depth ?? 0) > MAX_DEPTH) {
    ctx.note?.('make-expansion-too-deep', `expansion nested deeper than ${MAX_DEPTH} levels in "${text.slice(0, 60)}"`);
    return marker('too-deep');
  }
  let out = '';
  let i = 0;
  while (i < text.length) {
    const d = text.indexOf('$', i);
    if (d === -1) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, d);
    const next = text[d + 1];
    if (next === undefined) {
      out += '$';
      break;
    }
    if (next === '$') {
      out += '$';
      i = d + 2;
    } else if (next === '(' || next === '{') {
      const close = findClose(text, d + 1);
      if (close === -1) {
        ctx.note?.('make-unterminated-reference', `unterminated variable reference in "${text.slice(d, d + 40)}"; expected a closing "${next === '(' ? ')' : '}'}"`);
        out += marker('unterminated', text.slice(d + 2));
        break;
      }
      out += expandReference(text.slice(d + 2, close), ctx);
      i = close + 1;
    } else {
      out += lookupVariable(next, ctx);
      i = d + 2;
    }
  }
  return out;
}

/** Inside of `$(…)`: a function call, a substitution reference or a (computed) variable name. */
function expandReference(inner: string, ctx: ExpandContext): string {
  const fn = /^([a-z-]+)[ \t]/.exec(inner);
  if (fn && isFunctionName(fn[1]!)) {
    return callFunction(fn[1]!, inner.slice(fn[0].length), ctx, expandChild);
  }
  const colon = indexTopLevel(inner, ':');
  if (colon !== -1) {
    const eq = inner.indexOf('=', colon);
    if (eq !== -1) {
      const name = expandChild(inner.slice(0, colon), ctx);
      const from = expandChild(inner.slice(colon + 1, eq), ctx);
      const to = expandChild(inner.slice(eq + 1), ctx);
      return substitutionReference(lookupVariable(name, ctx), from, to);
    }
  }
  return lookupVariable(expandChild(inner, ctx), ctx);
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
