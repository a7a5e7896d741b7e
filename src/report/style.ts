/**
 * How text reports look on the reader's terminal: colour and width. The CLI
 * decides a TextStyle once from its Io (TTY or not, `NO_COLOR`, `FORCE_COLOR`,
 * `COLUMNS`); text formatters take it as an option and stay pure. `PLAIN` (no
 * colour, unlimited width) is what pipes, files and every non-text format get.
 * Colour is added last, after `terminalSafe` and truncation, so the only escape
 * sequences in the output are ours and widths count visible characters.
 */

export interface TextStyle {
  /** ANSI colour (SGR) on. */
  color: boolean;
  /** Longest line in columns; undefined = no limit (piped, a file). */
  width?: number;
}

export const PLAIN: TextStyle = { color: false };

/** The narrowest width pinwatch truncates to (a smaller COLUMNS is taken as this). */
export const MIN_WIDTH = 40;

/** What the CLI knows of its stdout. */
export interface TerminalInfo {
  isTTY: boolean;
  columns?: number;
}

/**
 * The style for stdout: colour on a TTY unless `NO_COLOR` is set (https://no-color.org),
 * and `FORCE_COLOR` (0/false off; 1, 2, 3, true or empty on) overriding both ways;
 * width from `COLUMNS` or the terminal on a TTY, unlimited otherwise.
 */
export function detectStyle(env: Record<string, string | undefined>, term: TerminalInfo): TextStyle {
  const force = env.FORCE_COLOR;
  let color: boolean;
  if (force !== undefined) color = !/^(0|false)$/i.test(force.trim());
  else if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') color = false;
  else color = term.isTTY && env.TERM !== 'dumb';
  if (!term.isTTY) return { color };
  const fromEnv = Number.parseInt(env.COLUMNS ?? '', 10);
  const columns = Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : term.columns;
  return columns && columns > 0 ? { color, width: Math.max(MIN_WIDTH, columns) } : { color };
}

/** The largest of many numbers without spreading them into a call (no stack limit); 0 for none. */
export function maxOf(values: Iterable<number>): number {
  let m = 0;
  for (const v of values) if (v > m) m = v;
  return m;
}

/** Visible columns of plain text: code points, East Asian wide and emoji as 2. */
export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += isWide(ch.codePointAt(0)!) ? 2 : 1;
  return w;
}

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** `text` cut to `width` columns with `…` as its last column when it was longer. */
export function truncate(text: string, width: number | undefined): string {
  if (width === undefined || text.length <= width / 2 || textWidth(text) <= width) return text;
  let out = '';
  let w = 0;
  for (const ch of text) {
    const cw = isWide(ch.codePointAt(0)!) ? 2 : 1;
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

/** `text` padded with spaces to `width` visible columns. */
export function padTo(text: string, width: number): string {
  const w = textWidth(text);
  return w >= width ? text : text + ' '.repeat(width - w);
}

/**
 * Rows as aligned columns (two spaces apart, the last column unpadded). Under a
 * width, the `flex` column (default the first) gives up columns, its cells cut
 * with `…`, down to `minFlex`; lines still too long are cut by `finish`.
 */
export function table(rows: readonly (readonly string[])[], style: TextStyle = PLAIN, flex = 0, minFlex = 12): string[] {
  if (rows.length === 0) return [];
  const ncol = rows[0]!.length;
  const widths = Array.from({ length: ncol }, (_, c) => maxOf(rows.map((r) => textWidth(r[c] ?? ''))));
  if (style.width !== undefined) {
    const total = widths.reduce((a, b) => a + b, 0) + 2 * (ncol - 1);
    const over = total - style.width;
    if (over > 0) widths[flex] = Math.max(Math.min(minFlex, widths[flex]!), widths[flex]! - over);
  }
  return rows.map((r) => r.map((cell, c) => (c === ncol - 1 ? cell : padTo(c === flex ? truncate(cell, widths[c]) : cell, widths[c]!))).join('  ').trimEnd());
}

export type Tone = 'error' | 'warning' | 'note' | 'good' | 'bold' | 'dim';

const SGR: Record<Tone, string> = { error: '31', warning: '33', note: '36', good: '32', bold: '1', dim: '2' };

/** `text` in a tone (ANSI SGR) when colour is on; unchanged otherwise. */
export function paint(style: TextStyle, tone: Tone, text: string): string {
  return style.color && text !== '' ? `\u001b[${SGR[tone]}m${text}\u001b[0m` : text;
}

/** A line's colouring, given the style (for `paint`); it sees the line already safe and cut. */
export type Colourer = (line: string, style: TextStyle) => string;

/**
 * A text report's last step, after `terminalSafe`: every line cut to the width,
 * then coloured (only when colour is on).
 */
export function finish(safeText: string, style: TextStyle, colour?: Colourer, wrapIndent?: WrapRule): string {
  if (style.width === undefined && (!style.color || !colour)) return safeText;
  const width = style.width;
  const paintLine = style.color && colour ? colour : undefined;
  const out: string[] = [];
  for (const l of safeText.split('\n')) {
    const indent = width === undefined ? undefined : wrapIndent?.(l);
    if (indent === undefined) {
      const cut = truncate(l, width);
      out.push(paintLine ? paintLine(cut, style) : cut);
    } else for (const w of wrap(l, width!, indent)) out.push(paintLine ? paintLine(w, style) : w);
  }
  return out.join('\n');
}

/** Which lines wrap instead of being cut, and the indent of their continuation lines (undefined: cut). */
export type WrapRule = (line: string) => number | undefined;

/**
 * A line wrapped at spaces to `width`, continuation lines indented by `indent`;
 * a word longer than a line is cut with `…`.
 */
export function wrap(line: string, width: number, indent: number): string[] {
  if (textWidth(line) <= width) return [line];
  const pad = ' '.repeat(Math.min(indent, Math.floor(width / 2)));
  const lead = /^ */.exec(line)![0];
  const words = line.slice(lead.length).split(' ');
  const out: string[] = [];
  let cur = lead;
  let curWidth = textWidth(lead);
  let fresh = true;
  for (const word of words) {
    const ww = textWidth(word);
    if (!fresh && curWidth + 1 + ww > width) {
      out.push(cur);
      cur = pad;
      curWidth = pad.length;
      fresh = true;
    }
    cur += fresh ? word : ` ${word}`;
    curWidth += fresh ? ww : ww + 1;
    fresh = false;
  }
  out.push(cur);
  return out.map((l) => truncate(l, width));
}

/** Findings-like lines wrap (their message is the point), with an indent of 6; tables and lists are cut. */
export const findingsWrap: WrapRule = (line) => (/^\S+: (error|warning|note) \[/.test(line) || /^ {2,4}(fix|see) /.test(line) ? 6 : undefined);

/** The colouring every findings-like line shares: severity words, `==` headings, `[rule]` group heads. */
export const findingsColourer: Colourer = (line, style) => {
  if (line.startsWith('== ')) return paint(style, 'bold', line);
  if (/^\[[\w-]+\] \d+ /.test(line)) return paint(style, 'bold', line);
  return line.replace(/^(\S+: )(error|warning|note)( \[)/, (_, a: string, sev: 'error' | 'warning' | 'note', b: string) => `${a}${paint(style, sev, sev)}${b}`);
};

/** How much a text report says: `quiet` the summary only, `verbose` also what is normally hidden. */
export type Detail = 'quiet' | 'normal' | 'verbose';

/** The options every text formatter takes besides its data. */
export interface TextOptions {
  style?: TextStyle;
  detail?: Detail;
}
