/**
 * Inline suppressions: `# pinwatch-ignore RULE[,RULE…] reason`. A directive at
 * the end of a line covers that line. A directive on a comment-only line covers
 * the next non-comment line below it; when that line is a bare mapping key
 * (`image:`), the whole block indented under it as well (a split map's
 * repository/tag/digest lines). A blank line ends the reach.
 */

export interface Directive {
  file: string;
  /** 1-based line of the comment. */
  line: number;
  rules: string[];
  /** Empty when the comment gives no reason. */
  reason: string;
  /** Inclusive 1-based line ranges this directive covers. */
  covers: [number, number][];
  /** The comment as written, for messages and fingerprints. */
  text: string;
}

const DIRECTIVE = /(?:^|\s)#\s*pinwatch-ignore(?=\s|$)(.*)$/;
const COMMENT_ONLY = /^\s*#/;
const BARE_KEY = /^\s*(?:-\s+)?[^\s#][^#]*?:\s*(?:#.*)?$/;

function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)![0].length;
}

function parseArgs(rest: string): { rules: string[]; reason: string } {
  const m = /^\s*(\S*)\s*(.*)$/.exec(rest)!;
  const rules = (m[1] ?? '').split(',').map((r) => r.trim()).filter(Boolean);
  const reason = (m[2] ?? '').replace(/^[\s\-:–—]+/, '').trim();
  return { rules, reason };
}

/** The block a full-line directive at index `i` (0-based) reaches. */
function coveredBelow(lines: string[], i: number): [number, number][] {
  let j = i + 1;
  while (j < lines.length && COMMENT_ONLY.test(lines[j]!)) j++;
  if (j >= lines.length || lines[j]!.trim() === '') return [];
  const target = lines[j]!;
  if (!BARE_KEY.test(target)) return [[j + 1, j + 1]];
  const base = indentOf(target);
  let end = j;
  for (let k = j + 1; k < lines.length; k++) {
    const l = lines[k]!;
    if (l.trim() === '' || COMMENT_ONLY.test(l)) continue;
    const indent = indentOf(l);
    const sequenceItem = indent === base && /^-(\s|$)/.test(l.slice(base));
    if (indent < base || (indent === base && !sequenceItem)) break;
    end = k;
  }
  return [[j + 1, end + 1]];
}

/** Every `pinwatch-ignore` directive in a file's text. */
export function parseDirectives(file: string, text: string): Directive[] {
  const lines = text.split(/\r?\n/);
  const out: Directive[] = [];
  lines.forEach((line, i) => {
    const m = DIRECTIVE.exec(line);
    if (!m) return;
    const { rules, reason } = parseArgs(m[1] ?? '');
    const trailing = !COMMENT_ONLY.test(line);
    const covers: [number, number][] = trailing ? [[i + 1, i + 1]] : coveredBelow(lines, i);
    out.push({ file, line: i + 1, rules, reason, covers, text: line.slice(line.indexOf('#')).trim() });
  });
  return out;
}

/** True when the directive names `rule` and covers one of `lines`. */
export function directiveCovers(d: Directive, rule: string, lines: readonly (number | undefined)[]): boolean {
  if (!d.rules.includes(rule)) return false;
  return lines.some((l) => l !== undefined && d.covers.some(([a, b]) => l >= a && l <= b));
}
