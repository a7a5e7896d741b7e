/**
 * Low-level text scanning shared by the reader and the expander: matching
 * parentheses of `$(…)`/`${…}`, splitting at top-level separators, splitting
 * words the way Make does (blanks only), and `%` patterns.
 */

/** Index of the closer matching the opener at `open`, counting only that bracket kind; -1 if none. */
export function findClose(text: string, open: number): number {
  const opener = text[open];
  const closer = opener === '(' ? ')' : '}';
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === opener) depth++;
    else if (c === closer && --depth === 0) return i;
  }
  return -1;
}

/** Split at `sep` characters that are outside any `(…)`/`{…}`; at most `max` parts (the last keeps the rest). */
export function splitTopLevel(text: string, sep: string, max = Infinity): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '{') depth++;
    else if ((c === ')' || c === '}') && depth > 0) depth--;
    else if (c === sep && depth === 0 && parts.length < max - 1) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** Index of the first top-level occurrence of any char in `chars`, or -1. */
export function indexTopLevel(text: string, chars: string, from = 0): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '$' && (text[i + 1] === '(' || text[i + 1] === '{')) {
      depth++;
      i++;
    } else if (c === '(' || c === '{') {
      if (depth > 0) depth++;
    } else if ((c === ')' || c === '}') && depth > 0) depth--;
    else if (depth === 0 && chars.includes(c)) return i;
  }
  return -1;
}

/** Make's word split: blanks are space, tab and newline (a no-break space is not one). */
export function words(text: string): string[] {
  return text.split(/[ \t\r\n]+/).filter((w) => w !== '');
}

/** Stem of `word` against a `%` pattern, or undefined; a pattern without `%` must equal the word. */
export function matchPattern(pattern: string, word: string): string | undefined {
  const p = pattern.indexOf('%');
  if (p === -1) return pattern === word ? '' : undefined;
  const prefix = pattern.slice(0, p);
  const suffix = pattern.slice(p + 1);
  if (word.length < prefix.length + suffix.length) return undefined;
  if (!word.startsWith(prefix) || !word.endsWith(suffix)) return undefined;
  return word.slice(prefix.length, word.length - suffix.length);
}

/** Replace the first `%` of `replacement` with `stem` (no `%`: the replacement itself). */
export function fillPattern(replacement: string, stem: string): string {
  const p = replacement.indexOf('%');
  return p === -1 ? replacement : replacement.slice(0, p) + stem + replacement.slice(p + 1);
}
