/**
 * Physical lines to logical lines: a backslash before the newline joins the
 * next line (the backslash, the newline and the next line's leading blanks
 * become one space). Each logical line keeps its first line number.
 */

export interface LogicalLine {
  /** Joined text, without the trailing newline. */
  text: string;
  /** 1-based number of its first physical line. */
  line: number;
  /** True when the first physical line starts with a tab (a recipe line in rule context). */
  tab: boolean;
}

/** The lines of recently split texts (a followed walk reads one Makefile once per CI-step environment). */
const recent = new Map<string, LogicalLine[]>();
const RECENT_MAX = 512;

/**
 * The logical lines of `source`. A text split from its first line is split once and the (frozen) result
 * shared by every later reading of the same text: callers read it, never modify it.
 */
export function logicalLines(source: string, firstLine = 1): LogicalLine[] {
  if (firstLine !== 1) return split(source, firstLine);
  let lines = recent.get(source);
  if (!lines) {
    if (recent.size >= RECENT_MAX) recent.clear();
    lines = Object.freeze(split(source, 1).map((l) => Object.freeze(l))) as LogicalLine[];
    recent.set(source, lines);
  }
  return lines;
}

function split(source: string, firstLine: number): LogicalLine[] {
  const physical = source.replace(/\r\n/g, '\n').split('\n');
  if (physical.at(-1) === '') physical.pop();
  const out: LogicalLine[] = [];
  let i = 0;
  while (i < physical.length) {
    const start = i;
    let text = physical[i]!;
    while (endsWithContinuation(text) && i + 1 < physical.length) {
      i++;
      text = `${text.slice(0, -1).replace(/[ \t]+$/, '')} ${physical[i]!.replace(/^[ \t]+/, '')}`;
    }
    if (endsWithContinuation(text)) text = text.slice(0, -1);
    out.push({ text, line: firstLine + start, tab: text.startsWith('\t') });
    i++;
  }
  return out;
}

/** An odd number of trailing backslashes continues the line. */
function endsWithContinuation(text: string): boolean {
  let n = 0;
  for (let j = text.length - 1; j >= 0 && text[j] === '\\'; j--) n++;
  return n % 2 === 1;
}

/**
 * Drop a `#` comment and unescape `\#`. As in GNU Make 4.3+, a `#` inside a
 * variable reference or function call (`$(shell echo #)`) is literal.
 */
export function stripComment(text: string): string {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && text[i + 1] === '#') {
      i++;
    } else if (c === '$' && (text[i + 1] === '(' || text[i + 1] === '{')) {
      depth++;
      i++;
    } else if ((c === '(' || c === '{') && depth > 0) depth++;
    else if ((c === ')' || c === '}') && depth > 0) depth--;
    else if (c === '#' && depth === 0) return text.slice(0, i).replace(/\\#/g, '#');
  }
  return text.replace(/\\#/g, '#');
}
