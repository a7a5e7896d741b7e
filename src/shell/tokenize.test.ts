/**
 * The tokenizer reads a run of plain characters in one step; this checks it
 * against the reader it replaced, which took one character at a time (kept
 * here verbatim as the reference; the quote, substitution and operator scanners
 * it calls are unchanged and shared), on lines made of the characters that matter
 * to the shell: every token, word part and quote must be the same.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closeDoubleQuote, closeSubstitution, operatorAt, tokenize, unescapeDouble, type Token, type WordPart } from './shell.js';

// the reference, as it was before the plain-run step
function referenceTokens(line: string): Token[] {
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

const ALPHABET = ['a', 'b', 'Z', '_', '-', '=', '.', '/', '0', '1', '2', ' ', '\t', '\n', '#', "'", '"', '\\', '$', '(', ')', '{', '}', '`', '&', '|', ';', '<', '>', '!', 'é', '\r', ':', '@', '*'];
const lineOf = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 60 }).map((cs) => cs.join(''));

describe('tokenize', () => {
  it.each([
    'docker buildx build -t ghcr.io/acme/app:$(TAG) --push .',
    'X=1 yq -i ".image.tag = \\"$TAG\\"" values.yaml && echo done>f.tag 2>&1',
    'cd dir; make -C sub target# not a comment',
    'echo a#b # comment\nnext 2>err 3<in 10>x',
    "printf '%s' \"$(git rev-parse HEAD)\" | tee x.tag",
    'a=é${B}c `date` $$ $1 \\$X',
  ])('%j as the reference reads it', (line) => {
    expect(tokenize(line)).toEqual(referenceTokens(line));
  });

  it('equals the reference on generated lines', () => {
    fc.assert(fc.property(lineOf, (line) => {
      expect(tokenize(line)).toEqual(referenceTokens(line));
    }), { numRuns: 20000 });
  });
});
