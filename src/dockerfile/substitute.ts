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
  /** Names whose value was substituted (so a caller can follow what that value itself lacked). */
  used: string[];
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

function expandBraced(inner: string, vars: ReadonlyMap<string, string>, placeholder: string | undefined, acc: Expansion, escape: string): string {
  const raw = '${' + inner + '}';
  const m = NAME.exec(inner);
  if (!m) return raw;
  const name = m[0];
  const rest = inner.slice(name.length);
  const value = vars.get(name);
  const sub = (word: string) => {
    const e = expandVariables(word, vars, placeholder, escape);
    acc.unresolved.push(...e.unresolved);
    acc.used.push(...e.used);
    return e.value;
  };
  const whole = () => {
    if (value === undefined) acc.unresolved.push(name);
    else acc.used.push(name);
    return value ?? placeholder ?? raw;
  };
  if (rest === '') return whole();
  const op = /^(:-|-|:\+|\+)([\s\S]*)$/.exec(rest);
  if (!op) {
    // ${VAR#pattern}, ${VAR%pattern} and friends: keep the value when known.
    return whole();
  }
  const [, kind, word] = op;
  const set = value !== undefined && (kind!.startsWith(':') ? value !== '' : true);
  if (kind === ':-' || kind === '-') {
    if (!set) return sub(word!);
    acc.used.push(name);
    return value!;
  }
  return set ? sub(word!) : '';
}

/** Expand variables in `text`; an unknown variable becomes `placeholder`, or stays as written when it is undefined. */
export function expandVariables(text: string, vars: ReadonlyMap<string, string>, placeholder?: string, escape = '\\'): Expansion {
  const acc: Expansion = { value: '', unresolved: [], used: [] };
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
      out += expandBraced(text.slice(i + 2, end), vars, placeholder, acc, escape);
      i = end;
      continue;
    }
    const m = NAME.exec(text.slice(i + 1));
    if (!m) {
      out += c;
      continue;
    }
    const value = vars.get(m[0]);
    if (value === undefined) acc.unresolved.push(m[0]);
    else acc.used.push(m[0]);
    out += value ?? placeholder ?? '$' + m[0];
    i += m[0].length;
  }
  acc.value = out;
  return acc;
}
