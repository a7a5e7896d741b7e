/**
 * Lines for comparison: split a (masked) text into numbered lines, find the
 * `#` comment on a line (outside quotes), and drop comments when asked.
 */
import { MASK_OPEN } from './mask.js';

export interface LineEntry {
  /** What is compared: the (masked) line, without its comment under --ignore-comments. */
  key: string;
  /** 1-based line number in the file. */
  line: number;
  /** The (masked) line in full. */
  masked: string;
}

/** Split a line into code and its `#` comment (a `#` at the start or after whitespace, outside quotes). */
export function splitComment(line: string): { code: string; comment?: string } {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) {
        if (quote === "'" && line[i + 1] === "'") i++;
        else quote = undefined;
      } else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if ((c === '"' || c === "'") && (i === 0 || /[\s:[{,-]/.test(line[i - 1] as string))) quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] as string))) return { code: line.slice(0, i), comment: line.slice(i) };
  }
  return { code: line };
}

/** True when a line holds only a comment (and indentation). */
export function isCommentLine(line: string): boolean {
  const { code, comment } = splitComment(line);
  return comment !== undefined && code.trim() === '';
}

/**
 * Numbered lines of a text. With `dropComments`, comments are cut off each line
 * and lines that held only a comment are left out (their numbers stay true).
 * `commentsApply` is false for kinds without `#` comments (.tag files).
 */
export function lineEntries(text: string, dropComments: boolean, commentsApply: boolean): LineEntry[] {
  const out: LineEntry[] = [];
  text.split('\n').forEach((masked, i) => {
    if (!dropComments || !commentsApply) {
      out.push({ key: masked, line: i + 1, masked });
      return;
    }
    const { code, comment } = splitComment(masked);
    if (comment === undefined) out.push({ key: masked, line: i + 1, masked });
    else if (code.trim() !== '') out.push({ key: code.replace(/[ \t]+$/, ''), line: i + 1, masked });
  });
  return out;
}

export function hasMask(line: string): boolean {
  return line.includes(MASK_OPEN);
}
