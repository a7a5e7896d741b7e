/**
 * parseYamlDocument / parseYamlValue against yaml's parseDocument / parse: the
 * same tree (node for node, as fast-parse.test.ts compares them), the same
 * errors, the same line starts in the caller's LineCounter, and the fast path
 * actually taken for recipe files inside the subset.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isMap, isPair, isScalar, isSeq, LineCounter, parse, parseAllDocuments, parseDocument } from 'yaml';
import { parseYamlDocument, parseYamlDocuments, parseYamlValue } from '../../src/collect/index.js';

function shape(node: unknown): unknown {
  if (node === null || node === undefined) return String(node);
  if (isScalar(node)) return ['S', typeof node.value, String(node.value), node.source, node.type, node.range?.[0], node.range?.[1]];
  if (isMap(node)) return ['M', !!node.flow, node.range?.[0], node.items.map((p) => (isPair(p) ? [shape(p.key), shape(p.value)] : 'not a pair'))];
  if (isSeq(node)) return ['Q', !!node.flow, node.range?.[0], node.items.map(shape)];
  return ['?', String(node)];
}

const RECIPE_DIR = fileURLToPath(new URL('./fixtures/recipes/', import.meta.url));
const recipes = readdirSync(RECIPE_DIR).map((name) => ({ name, text: readFileSync(join(RECIPE_DIR, name), 'utf8') }));

const CASES: { name: string; text: string }[] = [
  ...recipes,
  { name: 'empty', text: '' },
  { name: 'comments only', text: '# a\n\n# b\n' },
  { name: 'a marker only', text: '---\n' },
  { name: 'no final newline', text: 'a: 1\nb: |\n  x\n  y' },
  { name: 'two documents', text: 'a: 1\n---\nb: 2\n' },
  { name: 'three documents, one empty', text: '---\na: 1\n---\n---\n- b\n' },
  { name: 'a repeated key in the second document', text: 'a: 1\n---\nb: 2\nb: 3\n' },
  { name: 'quoted keys', text: '"a b": 1\n\'c\': 2\nd:\n  - "e": f\n' },
  { name: 'a repeated key', text: 'a: 1\nb:\n  c: 1\n  c: 2\n' },
  { name: 'a repeated key in a list item', text: 'a:\n  - x: 1\n    x: 2\n' },
  { name: 'outside the subset (anchor)', text: 'a: &x 1\nb: *x\n' },
  { name: 'not YAML', text: 'a: [1\nb: 2\n' },
  { name: 'a tab', text: 'a:\n\tb: 1\n' },
];

describe('parseYamlDocument is yaml.parseDocument, faster', () => {
  for (const uniqueKeys of [true, false]) {
    it(`gives yaml's tree, errors and line starts (uniqueKeys ${uniqueKeys})`, () => {
      for (const { name, text } of CASES) {
        const mine = new LineCounter();
        const theirs = new LineCounter();
        const got = parseYamlDocument(text, { lineCounter: mine, prettyErrors: false, uniqueKeys });
        const want = parseDocument(text, { lineCounter: theirs, prettyErrors: false, uniqueKeys });
        expect(got.errors.map((e) => [e.code, e.pos[0]]), name).toEqual(want.errors.map((e) => [e.code, e.pos[0]]));
        if (want.errors.length === 0) expect(shape(got.contents), name).toEqual(shape(want.contents));
        expect(mine.lineStarts, name).toEqual(theirs.lineStarts);
      }
    });
  }

  it('takes the fast path for the recipe fixtures (no yaml Document is built)', () => {
    for (const { name, text } of recipes) {
      const doc = parseYamlDocument(text, { uniqueKeys: false });
      expect(doc.constructor, name).toBe(Object);
      expect(isMap(doc.contents), name).toBe(true);
    }
    // a repeated key is yaml's error to report, not the fast path's
    expect(parseYamlDocument('a: 1\na: 2\n').errors.map((e) => e.code)).toEqual(['DUPLICATE_KEY']);
    expect(parseYamlDocument('a: 1\na: 2\n', { uniqueKeys: false }).errors).toEqual([]);
  });
});

describe('parseYamlDocuments is yaml.parseAllDocuments, faster', () => {
  for (const uniqueKeys of [true, false]) {
    it(`gives yaml's documents, errors and line starts (uniqueKeys ${uniqueKeys})`, () => {
      for (const { name, text } of CASES) {
        const mine = new LineCounter();
        const theirs = new LineCounter();
        const got = parseYamlDocuments(text, { lineCounter: mine, prettyErrors: false, uniqueKeys });
        const want = parseAllDocuments(text, { lineCounter: theirs, prettyErrors: false, uniqueKeys });
        const wantDocs = Array.isArray(want) ? want : [];
        expect(got.map((d) => d.errors.map((e) => [e.code, e.pos[0]])), name).toEqual(wantDocs.map((d) => d.errors.map((e) => [e.code, e.pos[0]])));
        expect(got.map((d) => (d.errors.length ? 'error' : shape(d.contents))), name).toEqual(wantDocs.map((d) => (d.errors.length ? 'error' : shape(d.contents))));
        expect(mine.lineStarts, name).toEqual(theirs.lineStarts);
      }
    });
  }
});

describe('parseYamlValue is yaml.parse', () => {
  it('gives the same value, or throws the same error', () => {
    for (const { name, text } of CASES) {
      let want: unknown;
      let wantError: string | undefined;
      try {
        want = parse(text, { uniqueKeys: false });
      } catch (e) {
        wantError = (e as { code?: string }).code;
      }
      if (wantError !== undefined) {
        expect(() => parseYamlValue(text, { uniqueKeys: false }), name).toThrow();
        continue;
      }
      expect(parseYamlValue(text, { uniqueKeys: false }), name).toEqual(want);
    }
  });
});
