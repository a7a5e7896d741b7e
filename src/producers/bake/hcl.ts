/**
 * A small HCL2 reader for the subset docker-bake files use: blocks with labels,
 * attributes, quoted strings with `${…}` interpolation (`$${` escapes), heredocs
 * (`<<EOT`, `<<-EOT`), tuples, objects, numbers, bools, null, variable references
 * (`TAG`, `target.x.tags`), and `#`, `//`, `/* *\/` comments. Every node keeps
 * its line. What it does not evaluate — function calls, `for` expressions,
 * operators and conditionals, `%{…}` template directives, index/splat — is kept
 * as an `unsupported` node with its text and line, never dropped, so the
 * reader can report it. A syntax error stops the file with its line.
 *
 * Why not an npm package: see README ("docker-bake files"): no maintained
 * pure-JS HCL2 parser that keeps line numbers fits Node 20 without a Go/WASM blob.
 */

export type HclExpr =
  | { kind: 'literal'; value: string | number | boolean | null; line: number }
  | { kind: 'template'; parts: (string | HclExpr)[]; line: number }
  | { kind: 'tuple'; items: HclExpr[]; line: number }
  | { kind: 'object'; entries: { key: string; value: HclExpr; line: number }[]; line: number }
  | { kind: 'variable'; path: string[]; line: number }
  | { kind: 'unsupported'; what: string; text: string; line: number };

export interface HclAttribute {
  name: string;
  value: HclExpr;
  line: number;
}

export interface HclBlock {
  type: string;
  labels: string[];
  body: HclBody;
  line: number;
}

export interface HclBody {
  attributes: HclAttribute[];
  blocks: HclBlock[];
}

export class HclSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

const IDENT_START = /[A-Za-z_]/;
const IDENT = /[A-Za-z0-9_-]/;

/** Parses an HCL2 native-syntax file; throws HclSyntaxError (with the line) on what is not HCL. */
export function parseHcl(text: string): HclBody {
  return new Parser(text).file();
}

class Parser {
  private pos = 0;
  private readonly lineStarts: number[] = [0];

  constructor(private readonly src: string) {
    for (let i = 0; i < src.length; i++) if (src[i] === '\n') this.lineStarts.push(i + 1);
  }

  file(): HclBody {
    const body = this.body(false);
    this.skip(true);
    if (this.pos < this.src.length) this.fail(`unexpected "${this.src[this.pos]}"`);
    return body;
  }

  lineAt(pos = this.pos): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  private fail(message: string, pos = this.pos): never {
    throw new HclSyntaxError(message, this.lineAt(pos));
  }

  private peek(n = 0): string {
    return this.src[this.pos + n] ?? '';
  }

  private startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  /** Skips spaces and comments; newlines too when `newlines`. */
  private skip(newlines: boolean): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\r' || (newlines && c === '\n')) this.pos++;
      else if (c === '#' || this.startsWith('//')) {
        while (this.pos < this.src.length && this.peek() !== '\n') this.pos++;
      } else if (this.startsWith('/*')) {
        const end = this.src.indexOf('*/', this.pos + 2);
        if (end === -1) this.fail('unterminated /* comment');
        this.pos = end + 2;
      } else return;
    }
  }

  private ident(): string {
    const start = this.pos;
    if (!IDENT_START.test(this.peek())) this.fail(`expected a name, found "${this.peek() || 'end of file'}"`);
    while (IDENT.test(this.peek())) this.pos++;
    return this.src.slice(start, this.pos);
  }

  private body(inBlock: boolean): HclBody {
    const body: HclBody = { attributes: [], blocks: [] };
    for (;;) {
      this.skip(true);
      if (this.pos >= this.src.length) {
        if (inBlock) this.fail('missing } at the end of a block');
        return body;
      }
      if (this.peek() === '}') {
        if (!inBlock) this.fail('unexpected }');
        return body;
      }
      const line = this.lineAt();
      const name = this.ident();
      this.skip(false);
      if (this.peek() === '=' && this.peek(1) !== '=') {
        this.pos++;
        this.skip(false);
        body.attributes.push({ name, value: this.expr(false), line });
        this.endOfItem();
        continue;
      }
      const labels: string[] = [];
      while (this.peek() !== '{') {
        if (this.peek() === '"') {
          const t = this.template();
          if (t.kind !== 'template' || t.parts.some((p) => typeof p !== 'string')) this.fail('a block label is a plain string');
          labels.push((t.parts as string[]).join(''));
        } else if (IDENT_START.test(this.peek())) labels.push(this.ident());
        else this.fail(`expected = or a block after "${name}", found "${this.peek() || 'end of file'}"`);
        this.skip(false);
      }
      this.pos++;
      const inner = this.body(true);
      this.pos++;
      body.blocks.push({ type: name, labels, body: inner, line });
      this.endOfItem();
    }
  }

  private endOfItem(): void {
    this.skip(false);
    const c = this.peek();
    if (c === '\n') this.pos++;
    else if (c !== '}' && c !== '') this.fail(`expected a new line, found "${c}"`);
  }

  /** An expression; `nested` inside brackets/parentheses, where new lines are blanks. */
  private expr(nested: boolean): HclExpr {
    const start = this.pos;
    const line = this.lineAt();
    const first = this.primary();
    this.skip(nested);
    const c = this.peek();
    const two = this.src.slice(this.pos, this.pos + 2);
    if ('?+-*/%<>!'.includes(c) && c !== '' || two === '==' || two === '&&' || two === '||') {
      this.rest(nested);
      const what = c === '?' ? 'a conditional expression' : 'an operator expression';
      return { kind: 'unsupported', what, text: this.src.slice(start, this.pos).trim(), line };
    }
    return first;
  }

  /** Consumes to the end of the current expression (a new line, `,`, or a closing bracket at depth 0). */
  private rest(nested: boolean): void {
    let depth = 0;
    while (this.pos < this.src.length) {
      const c = this.peek();
      if (c === '"') {
        this.template();
        continue;
      }
      if (this.startsWith('<<')) {
        this.heredoc();
        continue;
      }
      if ('([{'.includes(c)) depth++;
      else if (')]}'.includes(c)) {
        if (depth === 0) return;
        depth--;
      } else if (depth === 0 && (c === ',' || (c === '\n' && !nested))) return;
      this.pos++;
    }
  }

  private balanced(): void {
    const open = this.peek();
    const close = open === '(' ? ')' : open === '[' ? ']' : '}';
    const start = this.pos;
    this.pos++;
    for (;;) {
      this.rest(true);
      if (this.peek() !== ',') break;
      this.pos++;
    }
    if (this.peek() !== close) this.fail(`missing ${close}`, start);
    this.pos++;
  }

  /** After `[` or `{` at `start`: a `for` expression is read whole (bracket-balanced) and answered as unsupported; otherwise the opener is consumed. */
  private forExpression(start: number, line: number): HclExpr | undefined {
    this.pos++;
    this.skip(true);
    if (!/^for\b/.test(this.src.slice(this.pos, this.pos + 4))) return undefined;
    this.pos = start;
    this.balanced();
    return { kind: 'unsupported', what: 'a for expression', text: this.src.slice(start, this.pos), line };
  }

  private primary(): HclExpr {
    const line = this.lineAt();
    const start = this.pos;
    const c = this.peek();
    if (c === '"') return this.template();
    if (this.startsWith('<<')) return this.heredoc();
    if (c === '[') {
      const forExpr = this.forExpression(start, line);
      if (forExpr) return forExpr;
      const items: HclExpr[] = [];
      while (this.peek() !== ']') {
        if (this.pos >= this.src.length) this.fail('missing ]', start);
        items.push(this.expr(true));
        this.skip(true);
        if (this.peek() === ',') {
          this.pos++;
          this.skip(true);
        } else if (this.peek() === '') this.fail('missing ]', start);
        else if (this.peek() !== ']') this.fail(`expected , or ] in the list opened here, found "${this.peek()}"`, start);
      }
      this.pos++;
      return { kind: 'tuple', items, line };
    }
    if (c === '{') {
      const forExpr = this.forExpression(start, line);
      if (forExpr) return forExpr;
      const entries: { key: string; value: HclExpr; line: number }[] = [];
      while (this.peek() !== '}') {
        if (this.pos >= this.src.length) this.fail('missing }', start);
        const kline = this.lineAt();
        let key: string;
        if (this.peek() === '"') {
          const t = this.template();
          if (t.kind !== 'template' || t.parts.some((p) => typeof p !== 'string')) this.fail('an object key is a plain string here');
          key = (t.parts as string[]).join('');
        } else key = this.ident();
        this.skip(false);
        if (this.peek() !== '=' && this.peek() !== ':') this.fail(`expected = or : after key "${key}"`);
        this.pos++;
        this.skip(true);
        entries.push({ key, value: this.expr(true), line: kline });
        this.skip(true);
        if (this.peek() === ',') {
          this.pos++;
          this.skip(true);
        }
      }
      this.pos++;
      return { kind: 'object', entries, line };
    }
    if (c === '(') {
      this.balanced();
      return { kind: 'unsupported', what: 'a parenthesised expression', text: this.src.slice(start, this.pos), line };
    }
    if (/[0-9]/.test(c) || (c === '-' && /[0-9]/.test(this.peek(1)))) {
      const m = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.src.slice(this.pos))!;
      this.pos += m[0].length;
      return { kind: 'literal', value: Number(m[0]), line };
    }
    if (IDENT_START.test(c)) {
      const name = this.ident();
      if (name === 'true' || name === 'false') return { kind: 'literal', value: name === 'true', line };
      if (name === 'null') return { kind: 'literal', value: null, line };
      this.skip(false);
      if (this.peek() === '(') {
        this.balanced();
        return { kind: 'unsupported', what: `a function call (${name})`, text: this.src.slice(start, this.pos), line };
      }
      const path = [name];
      while (this.peek() === '.' && IDENT_START.test(this.peek(1))) {
        this.pos++;
        path.push(this.ident());
      }
      if (this.peek() === '[' || this.peek() === '.') {
        while (this.peek() === '[' || this.peek() === '.') {
          if (this.peek() === '[') this.balanced();
          else {
            this.pos++;
            if (this.peek() === '*') this.pos++;
            else this.ident();
          }
        }
        return { kind: 'unsupported', what: 'an index or splat expression', text: this.src.slice(start, this.pos), line };
      }
      return { kind: 'variable', path, line };
    }
    this.fail(`expected a value, found "${c || 'end of file'}"`);
  }

  /** A quoted template: literal parts and `${…}` interpolations; `%{…}` directives are unsupported. */
  private template(): HclExpr {
    const line = this.lineAt();
    const start = this.pos;
    this.pos++;
    const parts: (string | HclExpr)[] = [];
    let lit = '';
    for (;;) {
      const c = this.peek();
      if (c === '' || c === '\n') this.fail('unterminated string', start);
      if (c === '"') {
        this.pos++;
        break;
      }
      if (c === '\\') {
        const e = this.peek(1);
        const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };
        if (e in simple) {
          lit += simple[e];
          this.pos += 2;
        } else if (e === 'u' || e === 'U') {
          const len = e === 'u' ? 4 : 8;
          const hex = this.src.slice(this.pos + 2, this.pos + 2 + len);
          if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) this.fail(`bad \\${e} escape`);
          lit += String.fromCodePoint(parseInt(hex, 16));
          this.pos += 2 + len;
        } else this.fail(`unknown escape \\${e}`);
        continue;
      }
      const r = this.templatePart(lit, parts, start);
      if (r === undefined) {
        lit += c;
        this.pos++;
      } else lit = r;
    }
    if (lit) parts.push(lit);
    return { kind: 'template', parts, line };
  }

  /** At `$${`, `%%{`, `${` or `%{`: consumes it and returns the literal text so far (undefined: an ordinary character). */
  private templatePart(lit: string, parts: (string | HclExpr)[], start: number): string | undefined {
    if (this.startsWith('$${') || this.startsWith('%%{')) {
      this.pos += 3;
      return `${lit}${this.src[this.pos - 3]}{`;
    }
    if (this.startsWith('${') || this.startsWith('%{')) {
      const directive = this.peek() === '%';
      if (lit) parts.push(lit);
      const open = this.pos;
      this.pos += 2;
      if (this.peek() === '~') this.pos++;
      this.skip(true);
      if (directive) {
        this.pos = open + 1;
        this.balanced();
        parts.push({ kind: 'unsupported', what: 'a %{ } template directive', text: this.src.slice(open, this.pos), line: this.lineAt(open) });
        return '';
      }
      const e = this.expr(true);
      this.skip(true);
      if (this.peek() === '~') this.pos++;
      if (this.peek() !== '}') this.fail('missing } after ${', start);
      this.pos++;
      parts.push(e);
      return '';
    }
    return undefined;
  }

  /** `<<EOT` … `EOT` and `<<-EOT` (leading indentation of the least indented line removed), with interpolation. */
  private heredoc(): HclExpr {
    const line = this.lineAt();
    const start = this.pos;
    const m = /^<<(-?)([A-Za-z_][A-Za-z0-9_]*)[ \t]*\r?\n/.exec(this.src.slice(this.pos));
    if (!m) this.fail('a heredoc is <<NAME or <<-NAME followed by a new line');
    this.pos += m[0].length;
    const lines: string[] = [];
    for (;;) {
      if (this.pos >= this.src.length) this.fail(`heredoc not closed by ${m[2]}`, start);
      const end = this.src.indexOf('\n', this.pos);
      const text = this.src.slice(this.pos, end === -1 ? this.src.length : end).replace(/\r$/, '');
      this.pos = end === -1 ? this.src.length : end + 1;
      if (text.trim() === m[2]) {
        if (end !== -1) this.pos--;
        break;
      }
      lines.push(text);
    }
    let body = lines;
    if (m[1] === '-') {
      const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)![0].length));
      body = lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
    }
    const text = body.map((l) => `${l}\n`).join('');
    const inner = new Parser(`"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
    const t = inner.template();
    const shift = (e: HclExpr): HclExpr => ({ ...e, line });
    return t.kind === 'template' ? { ...t, parts: t.parts.map((p) => (typeof p === 'string' ? p : shift(p))), line } : t;
  }
}
