/**
 * String literals of source files, and the matcher each one becomes. Pure: text
 * in, literals out. Go is read with a small lexer (interpreted and raw strings,
 * comments, runes, imports and struct tags left out); Python, shell and
 * TypeScript/JavaScript with one line-level quoted-string reader. A literal's
 * holes (`%q`, `%s`, `%v`, `%d`, `%w` …; `{}`/`{name}` in Python; `$X`/`${X}`/`$(…)`
 * in shell; `${…}` in TypeScript) match any text; the constant text between them
 * is what makes a literal specific.
 */

export type LiteralLanguage = 'go' | 'python' | 'shell' | 'typescript';

/** One single-line piece of a literal (a literal holding newlines gives one piece per line). */
export interface SourceLiteral {
  value: string;
  /** 1-based line of the piece in the file. */
  line: number;
}

/** A literal as a matcher: the constant fragments, in order, with any text between them. */
export interface LiteralPattern {
  value: string;
  language: LiteralLanguage;
  fragments: string[];
  /** Characters of constant text (outside holes): the specificity. */
  constant: number;
}

const LANGUAGE_BY_EXTENSION: Record<string, LiteralLanguage> = {
  go: 'go',
  py: 'python',
  sh: 'shell',
  bash: 'shell',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'typescript',
  jsx: 'typescript',
  mjs: 'typescript',
  cjs: 'typescript',
};

/** The language whose literals pinwatch reads from `path`, or undefined for any other file. */
export function languageOf(path: string): LiteralLanguage | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return LANGUAGE_BY_EXTENSION[base.slice(dot + 1).toLowerCase()];
}

/** The literals of a whole file. */
export function extractLiterals(text: string, language: LiteralLanguage): SourceLiteral[] {
  return language === 'go' ? extractGo(text) : extractQuoted(text, language);
}

/** The literals that start on one line of a patch (history): raw strings spanning lines are not seen there. */
export function extractLineLiterals(line: string, language: LiteralLanguage): string[] {
  const found = language === 'go' ? extractGo(line, { lineOnly: true }) : extractQuoted(line, language);
  return found.map((l) => l.value);
}

const SIMPLE_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"' };

/** Decode a Go interpreted string's escape at `text[i]` (just after the backslash): [decoded, next index]. */
function goEscape(text: string, i: number): [string, number] {
  const c = text[i] ?? '';
  if (c in SIMPLE_ESCAPES) return [SIMPLE_ESCAPES[c]!, i + 1];
  const hex = (len: number): [string, number] => {
    const h = text.slice(i + 1, i + 1 + len);
    if (!/^[0-9a-fA-F]+$/.test(h) || h.length !== len) return [c, i + 1];
    const code = parseInt(h, 16);
    return [code <= 0x10ffff ? String.fromCodePoint(code) : '', i + 1 + len];
  };
  if (c === 'x') return hex(2);
  if (c === 'u') return hex(4);
  if (c === 'U') return hex(8);
  if (/[0-7]/.test(c)) {
    const o = text.slice(i, i + 3);
    if (/^[0-7]{3}$/.test(o)) return [String.fromCharCode(parseInt(o, 8) & 0xff), i + 3];
  }
  return [c, i + 1];
}

/** `json:"name,omitempty"`-shaped raw strings are struct tags, not messages. */
const STRUCT_TAG = /^(?:[A-Za-z_][\w-]*:"[^"]*"\s*)+$/;

function pieces(value: string, line: number, raw: boolean): SourceLiteral[] {
  if (!value.includes('\n')) return [{ value, line }];
  return value.split('\n').map((v, k) => ({ value: v.replace(/\r$/, ''), line: raw ? line + k : line }));
}

/** Go source: a lexer just good enough to find string literals outside comments, runes, imports and struct tags. */
function extractGo(text: string, opts: { lineOnly?: boolean } = {}): SourceLiteral[] {
  const out: SourceLiteral[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  let inImportBlock = false;
  while (i < n) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      const e = text.indexOf('\n', i);
      i = e < 0 ? n : e;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const e = text.indexOf('*/', i + 2);
      const end = e < 0 ? n : e + 2;
      for (let k = i; k < end; k++) if (text.charCodeAt(k) === 10) line++;
      i = end;
      continue;
    }
    if (c === 'i' && text.startsWith('import', i) && !/[\w.]/.test(text[i - 1] ?? ' ') && !/\w/.test(text[i + 6] ?? ' ')) {
      const rest = text.slice(i + 6, text.indexOf('\n', i) < 0 ? n : text.indexOf('\n', i)).trim();
      if (rest.startsWith('(')) inImportBlock = true;
      else {
        // import "x" / import alias "x": skip to the end of the line
        const e = text.indexOf('\n', i);
        i = e < 0 ? n : e;
        continue;
      }
      i += 6;
      continue;
    }
    if (inImportBlock && c === ')') {
      inImportBlock = false;
      i++;
      continue;
    }
    if (c === "'") {
      // a rune: 'x', '\n', '\x41', '\u1234'
      let k = i + 1;
      while (k < n && k < i + 12 && text[k] !== "'" && text[k] !== '\n') k += text[k] === '\\' ? 2 : 1;
      i = text[k] === "'" ? k + 1 : i + 1;
      continue;
    }
    if (c === '"') {
      const startLine = line;
      let v = '';
      let k = i + 1;
      let closed = false;
      while (k < n) {
        const d = text[k]!;
        if (d === '"') {
          closed = true;
          k++;
          break;
        }
        if (d === '\n') break;
        if (d === '\\') {
          const [s, next] = goEscape(text, k + 1);
          v += s;
          k = next;
          continue;
        }
        v += d;
        k++;
      }
      i = k;
      if (closed && !inImportBlock) out.push(...pieces(v, startLine, false));
      continue;
    }
    if (c === '`') {
      const startLine = line;
      const e = text.indexOf('`', i + 1);
      if (e < 0 || (opts.lineOnly && text.slice(i + 1, e).includes('\n'))) {
        // unterminated (or, in a patch line, the start of a raw string spanning lines)
        i = opts.lineOnly ? n : i + 1;
        continue;
      }
      const v = text.slice(i + 1, e);
      for (let k = i; k < e; k++) if (text.charCodeAt(k) === 10) line++;
      i = e + 1;
      // a struct tag follows a field's type on the same line: `json:"x"`
      if (!STRUCT_TAG.test(v) && !inImportBlock) out.push(...pieces(v, startLine, true));
      continue;
    }
    i++;
  }
  return out;
}

/**
 * Python, shell and TypeScript: quoted strings on one line (`"…"`, `'…'`, and
 * `` `…` `` in TypeScript), outside `#` (Python, shell) or `//` (TypeScript)
 * comments. Backslash escapes are decoded (none in shell single quotes).
 */
function extractQuoted(text: string, language: LiteralLanguage): SourceLiteral[] {
  const out: SourceLiteral[] = [];
  const hash = language === 'python' || language === 'shell';
  const lines = text.split('\n');
  lines.forEach((raw, idx) => {
    const s = raw.replace(/\r$/, '');
    let i = 0;
    while (i < s.length) {
      const c = s[i]!;
      if (hash && c === '#' && (i === 0 || /[\s;(]/.test(s[i - 1]!)) && !(language === 'shell' && s[i - 1] === '$')) break;
      if (!hash && c === '/' && s[i + 1] === '/') break;
      const quote = c === '"' || c === "'" || (c === '`' && language === 'typescript');
      if (!quote) {
        i++;
        continue;
      }
      // Python triple quotes: the string spans lines; skip the opener
      if (language === 'python' && s.startsWith(c.repeat(3), i)) {
        i += 3;
        continue;
      }
      let v = '';
      let k = i + 1;
      let closed = false;
      const escapes = !(language === 'shell' && c === "'");
      while (k < s.length) {
        const d = s[k]!;
        if (d === c) {
          closed = true;
          k++;
          break;
        }
        if (d === '\\' && escapes && k + 1 < s.length) {
          const e = s[k + 1]!;
          v += e === 'n' ? '\n' : e === 't' ? '\t' : e;
          k += 2;
          continue;
        }
        v += d;
        k++;
      }
      i = k;
      if (closed) out.push(...pieces(v, idx + 1, false));
    }
  });
  return out;
}

const PRINTF_VERB = String.raw`%[-+# 0]*(?:\[\d+\])?(?:\d+|\*)?(?:\.(?:\d+|\*)?)?(?:\[\d+\])?[a-zA-Z]`;
const HOLES: Record<LiteralLanguage, RegExp> = {
  go: new RegExp(`%%|${PRINTF_VERB}`, 'g'),
  python: new RegExp(String.raw`%%|\{\{|\}\}|\{[^{}]*\}|%\([A-Za-z_]\w*\)[-+# 0]*\d*(?:\.\d+)?[a-zA-Z]|${PRINTF_VERB}`, 'g'),
  shell: new RegExp(String.raw`%%|\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-]|${PRINTF_VERB}`, 'g'),
  typescript: new RegExp(String.raw`%%|\$\{[^}]*\}|%[sdifjoOc]`, 'g'),
};
const ESCAPED_HOLE: Record<string, string> = { '%%': '%', '{{': '{', '}}': '}' };

/** The fragments of a literal: constant text between holes (`%%`, `{{`, `}}` are constant). */
export function compilePattern(value: string, language: LiteralLanguage): LiteralPattern {
  const fragments: string[] = [];
  let current = '';
  let at = 0;
  for (const m of value.matchAll(HOLES[language])) {
    current += value.slice(at, m.index);
    at = m.index! + m[0].length;
    const escaped = ESCAPED_HOLE[m[0]];
    if (escaped !== undefined && (language !== 'typescript' || m[0] === '%%')) {
      current += escaped;
      continue;
    }
    if (current !== '') fragments.push(current);
    current = '';
  }
  current += value.slice(at);
  if (current !== '') fragments.push(current);
  return { value, language, fragments, constant: fragments.reduce((s, f) => s + f.length, 0) };
}

/**
 * Whether a pattern is specific enough to name a log line's source: at least
 * `minConstant` characters of constant text, and words in it (not a separator
 * line, a number or a bare path).
 */
export function isSpecific(p: LiteralPattern, minConstant: number): boolean {
  if (p.constant < minConstant) return false;
  const text = p.fragments.join(' ');
  if (!/[A-Za-z]{3,}/.test(text)) return false;
  // an identifier, URL, path or key with no space (an import path, a label key, a URL) is not a message
  if (p.fragments.length === 1 && !/\s/.test(text)) return false;
  return true;
}

/**
 * Match `pattern` in `text` (anywhere: a log line wraps messages), fragments in
 * order with any text between. Returns the span and what each inner hole
 * captured, or undefined.
 */
export function matchPattern(pattern: LiteralPattern, text: string): { start: number; end: number; holes: string[] } | undefined {
  const f = pattern.fragments;
  if (f.length === 0) return undefined;
  let from = 0;
  let start = -1;
  let end = 0;
  const holes: string[] = [];
  for (let k = 0; k < f.length; k++) {
    const at = text.indexOf(f[k]!, from);
    if (at < 0) return undefined;
    if (k === 0) start = at;
    else holes.push(text.slice(end, at));
    end = at + f[k]!.length;
    from = end;
  }
  return { start, end, holes };
}
