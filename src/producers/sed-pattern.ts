/**
 * What a `sed -i` script edits, as JavaScript regular expressions: the search
 * pattern of its `s` command and the `/address/` before it. A line is edited
 * only when every expression matches it. Converts POSIX basic (BRE, the
 * default) and extended (`-E`/`-r`) syntax with GNU extensions; anything it
 * cannot convert gives undefined, and the caller treats the write as covering
 * the whole file (as before).
 */

const CLASSES: Record<string, string> = {
  space: '\\s',
  blank: ' \\t',
  digit: '0-9',
  alpha: 'A-Za-z',
  alnum: 'A-Za-z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  xdigit: '0-9A-Fa-f',
};

/** The search pattern and address of the first `s` command of `script`, as regexes. */
export function sedLineFilter(script: string, extended: boolean): RegExp[] | undefined {
  const s = /(?:^|[;\n\s/}])s([^\w\s\\])/.exec(script);
  if (!s) return undefined;
  const delim = s[1]!;
  const start = s.index + s[0].length;
  const search = splitOnDelimiter(script.slice(start), delim);
  if (search === undefined) return undefined;
  const sources = [search];
  const address = /^\s*\/((?:\\.|[^/\\])*)\/\s*$/.exec(script.slice(0, s.index + s[0].length - 2));
  if (address) sources.push(address[1]!.replace(/\\\//g, '/'));
  const out: RegExp[] = [];
  for (const src of sources) {
    const re = toJsRegExp(src, extended);
    if (!re) return undefined;
    out.push(re);
  }
  return out;
}

/** The text up to the first unescaped delimiter, with `\<delim>` turned into a literal delimiter. */
function splitOnDelimiter(text: string, delim: string): string | undefined {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && text[i + 1] === delim) {
      out += /[\]^\\]/.test(delim) ? `\\${delim}` : `[${delim}]`; // a bracket keeps it literal in BRE and ERE alike
      i++;
    } else if (c === '\\' && i + 1 < text.length) {
      out += c + text[++i];
    } else if (c === delim) return out;
    else out += c;
  }
  return undefined;
}

function toJsRegExp(source: string, extended: boolean): RegExp | undefined {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '[') {
      const end = bracketEnd(source, i);
      if (end < 0) return undefined;
      const cls = bracket(source.slice(i, end + 1));
      if (cls === undefined) return undefined;
      out += cls;
      i = end;
    } else if (c === '\\' && i + 1 < source.length) {
      const n = source[++i]!;
      if (!extended && '(){}+?|'.includes(n)) out += n; // GNU BRE: \( \) \{ \} \+ \? \| are operators
      else if (/[1-9]/.test(n)) return undefined; // back-references: not worth guessing
      else out += `\\${n}`;
    } else if (!extended && '(){}+?|'.includes(c)) out += `\\${c}`; // BRE: literal
    else out += c;
  }
  try {
    return new RegExp(out);
  } catch {
    return undefined;
  }
}

/** Index of the `]` closing the bracket expression opened at `open` (a leading `]` or `^]` is literal). */
function bracketEnd(source: string, open: number): number {
  let i = open + 1;
  if (source[i] === '^') i++;
  if (source[i] === ']') i++;
  for (; i < source.length; i++) {
    if (source[i] === '[' && source[i + 1] === ':') {
      const close = source.indexOf(':]', i + 2);
      if (close < 0) return -1;
      i = close + 1;
    } else if (source[i] === ']') return i;
  }
  return -1;
}

function bracket(expr: string): string | undefined {
  let failed = false;
  // In a POSIX bracket a backslash is itself; then the named classes.
  const body = expr
    .slice(1, -1)
    .replace(/\\/g, '\\\\')
    .replace(/^(\^?)\]/, '$1\\]')
    .replace(/\[:([a-z]+):\]/g, (_m, name: string) => {
      const cls = CLASSES[name];
      if (cls === undefined) failed = true;
      return cls ?? '';
    });
  return failed ? undefined : `[${body}]`;
}
