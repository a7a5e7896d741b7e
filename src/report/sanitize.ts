/**
 * Untrusted text on its way out: commit subjects, file names, registry error
 * texts and YAML values can carry terminal controls (OSC 52 writes the reader's
 * clipboard, OSC 0 retitles the window, `ESC[2J`/`ESC[1A ESC[2K` erase and forge
 * lines, CR overwrites) and Markdown structure (`|`, backticks, raw HTML). Every
 * text, Markdown and GitHub formatter passes its output through `terminalSafe`
 * and its untrusted fields through `plainField`, `markdownText` or `markdownCode`.
 * Controls become visible escapes (`\x1b`, `\r`, `\u202e`); pure, no I/O.
 */

/** C0 controls, DEL, C1 controls, and the bidirectional overrides and isolates ("Trojan Source"). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** The same, except the newline a formatter emits between its lines. */
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visible(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Every control character of `text` (newlines too) as a visible escape: one untrusted field on one line. */
export function plainField(text: string): string {
  return text.replace(CONTROL, visible);
}

/** A formatter's whole output: every control as a visible escape except `\n`. Idempotent. */
export function terminalSafe(output: string): string {
  return output.replace(CONTROL_BUT_NEWLINE, visible);
}

/**
 * Untrusted text in Markdown prose or a table cell: controls (newlines too)
 * escaped, then `\`, `` ` ``, `|`, `*`, `_`, `[`, `]` backslash-escaped and
 * `&`, `<`, `>` as entities, so it can open no code span, cell, link or HTML tag.
 */
export function markdownText(text: string): string {
  return plainField(text)
    .replace(/[\\`|*_[\]]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * Untrusted text as a Markdown code span: controls escaped, a backtick fence
 * longer than any run inside, and, in a table cell, `|` as `\|` (GFM splits
 * cells before it reads code spans).
 */
export function markdownCode(text: string, inTable = false): string {
  let body = plainField(text);
  if (inTable) body = body.replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = body.startsWith('`') || body.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}
