/**
 * Reads a yq invocation: its flags, expression and files, and from an
 * expression the assignments it makes (`.a.b = strenv(X)`, several joined with
 * `|`) as key paths plus right-hand sides, or the single path it reads
 * (`yq .a.b FILE`). Key paths come out dot-joined without the leading dot, with
 * `[i]` for indexes, as pins spell them.
 */

export interface YqCall {
  inPlace: boolean;
  expression?: string;
  files: string[];
}

export interface YqAssignment {
  keyPath: string;
  /** Right-hand side as written (`strenv(IMAGE)`, `"digest=" + strenv(D)`). */
  rhs: string;
}

/** yq flags that take a value as the next argument. */
const VALUE_FLAGS = new Set(['-o', '--output-format', '-p', '--input-format', '-I', '--indent', '--expression', '--from-file', '--split-exp', '-s', '--xml-attribute-prefix', '--xml-content-name', '--lua-prefix', '--properties-separator', '--csv-separator']);

export function readYqArgs(args: string[]): YqCall {
  let inPlace = false;
  let expression: string | undefined;
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-i' || a === '--inplace' || /^-[a-zA-Z]*i[a-zA-Z]*$/.test(a) && !a.startsWith('--') && a.length <= 4 && a !== '-I') {
      inPlace = true;
    } else if (a === '--expression') {
      expression = args[++i];
    } else if (VALUE_FLAGS.has(a)) {
      i++;
    } else if (a.startsWith('-') && a !== '-') {
      continue;
    } else positional.push(a);
  }
  if (positional[0] === 'e' || positional[0] === 'eval' || positional[0] === 'ea' || positional[0] === 'eval-all') positional.shift();
  if (expression === undefined) expression = positional.shift();
  return { inPlace, ...(expression !== undefined ? { expression } : {}), files: positional };
}

/** The assignments of an update expression; non-assignment segments (del, select, …) are left out. */
export function yqAssignments(expression: string): YqAssignment[] {
  const out: YqAssignment[] = [];
  for (const segment of splitPipes(expression)) {
    const m = /^\s*(\.[^=|]*?)\s*(=|\|=)\s*([\s\S]+?)\s*$/.exec(segment);
    if (!m || m[1]!.includes('(')) continue;
    const keyPath = yqPathToKeyPath(m[1]!);
    if (keyPath !== undefined) out.push({ keyPath, rhs: m[3]! });
  }
  return out;
}

/** `.a.b["c-d"][0]."e"` → `a.b.c-d[0].e`; undefined for anything that is not a plain path. */
export function yqPathToKeyPath(path: string): string | undefined {
  const p = path.trim();
  if (!p.startsWith('.')) return undefined;
  const keys: string[] = [];
  let i = 0;
  while (i < p.length) {
    const rest = p.slice(i);
    let m: RegExpExecArray | null;
    if ((m = /^\.?\[\s*(\d+)\s*\]/.exec(rest))) {
      if (keys.length === 0) return undefined;
      keys[keys.length - 1] += `[${m[1]}]`;
    } else if ((m = /^\.?\[\s*"([^"]*)"\s*\]/.exec(rest)) || (m = /^\.?\[\s*'([^']*)'\s*\]/.exec(rest))) {
      keys.push(m[1]!);
    } else if ((m = /^\."([^"]*)"/.exec(rest))) {
      keys.push(m[1]!);
    } else if ((m = /^\.([A-Za-z0-9_$-]+)/.exec(rest))) {
      keys.push(m[1]!);
    } else return undefined;
    i += m[0].length;
  }
  return keys.length > 0 ? keys.join('.') : undefined;
}

/** Split at `|` outside quotes, parentheses and brackets (`|=` is not a pipe). */
function splitPipes(expr: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < expr.length; i++) {
    const c = expr[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === '|' && depth === 0 && expr[i + 1] !== '=') {
      parts.push(expr.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(expr.slice(start));
  return parts;
}

/** The env variables a right-hand side reads (`strenv(X)`, `env(X)`). */
export function envReads(rhs: string): string[] {
  return [...rhs.matchAll(/\b(?:str)?env\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)/g)].map((m) => m[1]!);
}
