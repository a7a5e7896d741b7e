/**
 * Dockerfile variable substitution (`$VAR`, `${VAR}`, `${VAR:-default}`,
 * `${VAR-default}`, `${VAR:+alt}`, `${VAR+alt}`) against the ARG/ENV values known
 * at an instruction. A variable with no known value is replaced by a placeholder
 * chosen by the caller (a `*` glob for COPY sources) and reported.
 */

export interface Expansion {
  value: string;
  /** Names that had no value and no default. */
  unresolved: string[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/** Find the `}` closing a `${` at `open`, allowing nested `${…}` in defaults. */
function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '$' && text[i + 1] === '{') {
      depth++;
      i++;
    } else if (text[i] === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function expandBraced(inner: string, vars: ReadonlyMap<string, string>, placeholder: string | undefined, unresolved: string[], escape: string): string {
  const raw = '${' + inner + '}';
  const m = NAME.exec(inner);
  if (!m) return raw;
  const name = m[0];
  const rest = inner.slice(name.length);
  const value = vars.get(name);
  const sub = (word: string) => {
    const e = expandVariables(word, vars, placeholder, escape);
    unresolved.push(...e.unresolved);
    return e.value;
  };
  if (rest === '') {
    if (value === undefined) unresolved.push(name);
    return value ?? placeholder ?? raw;
  }
  const op = /^(:-|-|:\+|\+)([\s\S]*)$/.exec(rest);
  if (!op) {
    // ${VAR#pattern}, ${VAR%pattern} and friends: keep the value when known.
    if (value === undefined) unresolved.push(name);
    return value ?? placeholder ?? raw;
  }
  const [, kind, word] = op;
  const set = value !== undefined && (kind!.startsWith(':') ? value !== '' : true);
  if (kind === ':-' || kind === '-') return set ? value! : sub(word!);
  return set ? sub(word!) : '';
}

/** Expand variables in `text`; an unknown variable becomes `placeholder`, or stays as written when it is undefined. */
export function expandVariables(text: string, vars: ReadonlyMap<string, string>, placeholder?: string, escape = '\\'): Expansion {
  const unresolved: string[] = [];
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === escape && text[i + 1] === '$') {
      out += '$';
      i++;
      continue;
    }
    if (c !== '$') {
      out += c;
      continue;
    }
    if (text[i + 1] === '{') {
      const end = closingBrace(text, i);
      if (end < 0) {
        out += text.slice(i);
        break;
      }
      out += expandBraced(text.slice(i + 2, end), vars, placeholder, unresolved, escape);
      i = end;
      continue;
    }
    const m = NAME.exec(text.slice(i + 1));
    if (!m) {
      out += c;
      continue;
    }
    const value = vars.get(m[0]);
    if (value === undefined) unresolved.push(m[0]);
    out += value ?? placeholder ?? '$' + m[0];
    i += m[0].length;
  }
  return { value: out, unresolved };
}
