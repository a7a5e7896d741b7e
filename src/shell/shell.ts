/**
 * The one POSIX-shell reader (a leaf: Makefile recipe lines for producers/, Dockerfile
 * RUN commands for sources/): words with their quoting kept
 * (so `$VAR` is substituted only where the shell would), command
 * substitutions kept whole, redirections, and the split into simple commands
 * at `&&`, `||`, `;`, `|`, `&` and newlines. Enough to see `X=… yq -i … FILE`,
 * `echo … > f.tag` and `docker buildx build …`; not a shell.
 */

export interface WordPart {
  text: string;
  quote: 'none' | 'single' | 'double';
}

export interface Word {
  parts: WordPart[];
}

export interface Redirect {
  /** `>`, `>>`, `<`, `2>`, `&>`, … */
  op: string;
  target: Word;
}

export interface SimpleCommand {
  /** Leading `NAME=value` words. */
  assignments: { name: string; value: Word }[];
  args: Word[];
  redirects: Redirect[];
  /** The command whose output a `|` pipes into this one's input (`cat ./Dockerfile | docker build -f - .`). */
  pipedFrom?: SimpleCommand;
}

export type Token = { kind: 'word'; word: Word } | { kind: 'op'; op: string };

const SEPARATORS = ['&&', '||', ';;', ';', '|', '&', '\n', '(', ')'];
const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '{', '}', '!', 'time']);

/** Literal text of a word with quotes removed (substitutions left as written). */
export function wordText(w: Word): string {
  return w.parts.map((p) => p.text).join('');
}

/** Substitute `$NAME`/`${NAME}` in unquoted and double-quoted parts from `vars`; unknown names stay as written. */
export function resolveWord(w: Word, vars: ReadonlyMap<string, string>): string {
  return w.parts.map((p) => (p.quote === 'single' ? p.text : substituteVars(p.text, vars))).join('');
}

export function substituteVars(text: string, vars: ReadonlyMap<string, string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (all, a?: string, b?: string) => vars.get((a ?? b)!) ?? all);
}

/**
 * The shell text inside each `$(…)` and backquoted substitution of a word (not in
 * single quotes), outermost first; these run as commands of their own.
 */
export function commandSubstitutions(w: Word): string[] {
  const out: string[] = [];
  for (const p of w.parts) {
    if (p.quote === 'single') continue;
    for (let i = 0; i < p.text.length; i++) {
      if (p.text[i] === '$' && p.text[i + 1] === '(' && p.text[i + 2] !== '(') {
        const end = closeSubstitution(p.text, i + 1);
        out.push(p.text.slice(i + 2, p.text[end] === ')' ? end : end + 1));
        i = end;
      } else if (p.text[i] === '`') {
        const end = p.text.indexOf('`', i + 1);
        if (end === -1) break;
        out.push(p.text.slice(i + 1, end));
        i = end;
      }
    }
  }
  return out;
}

export function parseShell(line: string): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { assignments: [], args: [], redirects: [] };
  const tokens = tokenize(line);
  let piped: SimpleCommand | undefined;
  const flush = (): SimpleCommand | undefined => {
    let pushed: SimpleCommand | undefined;
    if (current.args.length || current.assignments.length || current.redirects.length) {
      if (piped) current.pipedFrom = piped;
      commands.push((pushed = current));
    }
    piped = undefined;
    current = { assignments: [], args: [], redirects: [] };
    return pushed;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'op') {
      if (isRedirect(t.op)) {
        const next = tokens[i + 1];
        if (next?.kind === 'word' && !/[<>]&\d*-?$/.test(t.op)) {
          current.redirects.push({ op: t.op, target: next.word });
          i++;
        }
        continue;
      }
      const done = flush();
      if (t.op === '|') piped = done;
      continue;
    }
    const text = wordText(t.word);
    if (current.args.length === 0 && KEYWORDS.has(text) && t.word.parts.every((p) => p.quote === 'none')) {
      flush();
      continue;
    }
    const assignment = current.args.length === 0 ? asAssignment(t.word) : undefined;
    if (assignment) current.assignments.push(assignment);
    else current.args.push(t.word);
  }
  flush();
  return commands;
}

function isRedirect(op: string): boolean {
  return /^(?:\d*>>?|&>>?|\d*<|\d*>&|\d*<&|>\|)$/.test(op) || /^\d*>&\d*$/.test(op);
}

/** `NAME=value` with an unquoted name. */
function asAssignment(w: Word): { name: string; value: Word } | undefined {
  const first = w.parts[0];
  if (!first || first.quote !== 'none') return undefined;
  const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(first.text);
  if (!m) return undefined;
  const rest: WordPart[] = [{ text: first.text.slice(m[0].length), quote: 'none' as const }, ...w.parts.slice(1)].filter((p) => p.text !== '' || p.quote !== 'none');
  return { name: m[1]!, value: { parts: rest } };
}

/** The words and operators of a line (exported for the equivalence test against the one-character-at-a-time reader). */
export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let parts: WordPart[] = [];
  let started = false;
  const push = (text: string, quote: WordPart['quote']) => {
    started = true;
    const last = parts.at(-1);
    if (last && last.quote === quote) last.text += text;
    else parts.push({ text, quote });
  };
  const endWord = () => {
    if (started) tokens.push({ kind: 'word', word: { parts } });
    parts = [];
    started = false;
  };
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ' || c === '\t') {
      endWord();
      i++;
    } else if (c === '#' && !started) {
      while (i < line.length && line[i] !== '\n') i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      const stop = end === -1 ? line.length : end;
      push(line.slice(i + 1, stop), 'single');
      i = stop + 1;
    } else if (c === '"') {
      const end = closeDoubleQuote(line, i + 1);
      push(unescapeDouble(line.slice(i + 1, end)), 'double');
      if (end >= line.length) started = true;
      i = end + 1;
    } else if (c === '\\') {
      if (line[i + 1] !== '\n') push(line[i + 1] ?? '', 'single');
      i += 2;
    } else if (c === '$' && (line[i + 1] === '(' || line[i + 1] === '{')) {
      const end = closeSubstitution(line, i + 1);
      push(line.slice(i, end + 1), 'none');
      i = end + 1;
    } else if (c === '`') {
      const end = line.indexOf('`', i + 1);
      const stop = end === -1 ? line.length - 1 : end;
      push(line.slice(i, stop + 1), 'none');
      i = stop + 1;
    } else if (!OPERATOR_START[line.charCodeAt(i)] && (started || !isDigit(line.charCodeAt(i)))) {
      // a run of plain characters (no operator, quote, escape, substitution or blank can start inside it): one push, not one per character
      let j = i + 1;
      while (j < line.length && !WORD_STOP[line.charCodeAt(j)]) j++;
      push(line.slice(i, j), 'none');
      i = j;
    } else {
      const op = operatorAt(line, i, started ? parts : undefined);
      if (op) {
        endWord();
        tokens.push({ kind: 'op', op });
        i += op.length;
      } else {
        push(c, 'none');
        i++;
      }
    }
  }
  endWord();
  return tokens;
}

/** First characters of an operator (operatorAt): redirections and separators; a digit starts one only at a word start. */
const OPERATOR_START = charTable('&><|;\n()');
/** Where a run of plain characters inside a word ends: an operator, a blank, a quote, an escape, `$` or a backquote. */
const WORD_STOP = charTable('&><|;\n() \t\'"\\$`');
const isDigit = (c: number) => c >= 48 && c <= 57;

function charTable(chars: string): Uint8Array {
  const t = new Uint8Array(128);
  for (const c of chars) t[c.charCodeAt(0)] = 1;
  return t;
}

/** An operator starting at `i` (redirections with a leading fd number only at a word start). Exported for the tokenizer's reference test. */
export function operatorAt(line: string, i: number, partsSoFar: WordPart[] | undefined): string | undefined {
  const rest = line.slice(i);
  const redirect = /^(?:&>>?|>>|>\||>&\d*-?|>|<&\d*|<)/.exec(rest);
  if (redirect) return redirect[0];
  if (partsSoFar === undefined) {
    const fd = /^\d+(?:>>|>&\d*|>|<)/.exec(rest);
    if (fd) return fd[0];
  }
  return SEPARATORS.find((s) => rest.startsWith(s));
}

export function closeDoubleQuote(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') i++;
    else if (c === '"') return i;
    else if (c === '$' && line[i + 1] === '(') i = closeSubstitution(line, i + 1);
    else if (c === '`') {
      const e = line.indexOf('`', i + 1);
      if (e !== -1) i = e;
    }
  }
  return line.length;
}

/** Index of the `)`/`}` closing the substitution opened at `open`, skipping quoted text. */
export function closeSubstitution(line: string, open: number): number {
  const opener = line[open];
  const closer = opener === '(' ? ')' : '}';
  let depth = 0;
  for (let i = open; i < line.length; i++) {
    const c = line[i];
    if (c === "'" && opener === '(') {
      const e = line.indexOf("'", i + 1);
      if (e === -1) return line.length - 1;
      i = e;
    } else if (c === '"' && opener === '(') {
      i = closeDoubleQuote(line, i + 1);
    } else if (c === '\\') i++;
    else if (c === opener) depth++;
    else if (c === closer && --depth === 0) return i;
  }
  return line.length - 1;
}

export function unescapeDouble(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, ch: string) => (ch === '\n' ? '' : ch));
}
