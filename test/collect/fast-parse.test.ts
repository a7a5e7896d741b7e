/**
 * The fast parser against the `yaml` library, node by node: whenever fastParseAll
 * accepts a text, yaml must parse it into as many documents, without errors and
 * with the same trees — every scalar's value (and its type), source, style and
 * the range start and end the collector reads; every collection's kind, flow flag and start.
 * Multi-document manifests, block scalars and multi-line scalars included (a
 * generated CRD bundle shaped like cozystack's 1.1 MB one).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { isMap, isPair, isScalar, isSeq, parseAllDocuments } from 'yaml';
import { generateTree } from '../../bench/scan/generate.mjs';
import { generateManifest } from '../../bench/scan/manifest.mjs';
import { COZYSTACK_FIXTURE, cozystackFiles } from '../support/cozystack.js';
import { collectorYamlFixtures, mutateText } from '../support/yaml-fixtures.js';
import { fastParse, fastParseAll } from '../../src/collect/yaml/fast-parse.js';

function shape(node: unknown): unknown {
  if (isScalar(node)) return ['S', typeof node.value, String(node.value), node.source, node.type, node.range?.[0], node.range?.[1]];
  if (isMap(node)) return ['M', !!node.flow, node.range?.[0], node.items.map((p) => (isPair(p) ? [shape(p.key), shape(p.value)] : 'not a pair'))];
  if (isSeq(node)) return ['Q', !!node.flow, node.range?.[0], node.items.map(shape)];
  return ['?', String(node)];
}

function viaYaml(text: string): unknown {
  const docs = parseAllDocuments(text, { uniqueKeys: false });
  if (!Array.isArray(docs)) return 'no documents';
  const errors = docs.flatMap((d) => d.errors.map((e) => e.message));
  if (errors.length > 0) return `errors: ${errors.join('; ')}`;
  return docs.map((d) => shape(d.contents));
}

/** Accepted texts must match yaml exactly; returns whether fastParseAll accepted. */
function check(text: string, label: string): boolean {
  const fast = fastParseAll(text);
  if (!fast) return false;
  expect(fast.map(shape), `${label}\n${text}`).toEqual(viaYaml(text));
  // fastParse is the one-document view of the same parse
  if (fast.length === 1 && !isScalar(fast[0])) expect(fastParse(text)).toBeDefined();
  else expect(fastParse(text)).toBeUndefined();
  return true;
}

/** Recipe files (a workflow, compose, GoReleaser, Cloud Build) in the shapes real ones use. */
const RECIPE_DIR = fileURLToPath(new URL('./fixtures/recipes/', import.meta.url));
function fixtureTexts(): { name: string; text: string }[] {
  const out = collectorYamlFixtures();
  for (const name of readdirSync(RECIPE_DIR)) out.push({ name: `recipe ${name}`, text: readFileSync(join(RECIPE_DIR, name), 'utf8') });
  for (const f of cozystackFiles()) if (f.kind === 'yaml') out.push({ name: f.path, text: readFileSync(join(COZYSTACK_FIXTURE, f.path), 'utf8') });
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-fast-'));
  try {
    generateTree(dir, 20);
    for (let i = 0; i < 20; i++) {
      const path = join(dir, 'packages', `group-${i % 20}`, `svc-${i}`, 'values.yaml');
      out.push({ name: `bench svc-${i}`, text: readFileSync(path, 'utf8') });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  out.push({ name: 'generated CRD bundle', text: generateManifest(120) });
  // small bundles, so the mutations below often land in block, folded and quoted multi-line scalars and markers
  for (let seed = 1; seed <= 12; seed++) out.push({ name: `generated small bundle ${seed}`, text: generateManifest(3, seed) });
  return out;
}

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKENS = [
  ' ', '  ', '\n', ':', ': ', '- ', '-', '#', ' #', ' # c', '"', "'", '{', '}', '[', ']', ',', ', ', '?', '? ', '&a ', '*a', '!', '!!str ',
  '|', '>', '0', '1.5', '1e3', '-1', '+1', '0o7', '0x1F', '.inf', '.nan', 'true', 'True', 'FALSE', '~', 'null', 'Null', '""', "''",
  'key: v', '\n  ', '\n- ', '\n    x: y', '\n  - z', '...', '---', '\n---\n', '\n...\n', 'é', '\\', '%', '@', '`', '=', '/', '.', '\t', '\r',
  '{{ .Values.x }}', '{a: b}', '[a, b]', '{}', '[]', 'ghcr.io/acme/x:v1', ' image: a:b', ':x', 'a:b', 'x #y', '#x',
  // escapes, whitespace-only lines (in block scalars), non-ASCII text
  '"k": ', "'k': ", '\n"k": v', '\\n', '\\"', '\\\\', '\\x41', '\\u00e9', '\\U0001F600', '\\u12', '\\q', '\\ ', '\n   \n', '\n      \n', '\n\n', '—', '✓ ', '\u00a0', '\u0085', ': |\n  x\n   \n  y', ': >\n\n  x', ': |-\n\n  \n  a\n',
];

function mutate(text: string, next: () => number): string {
  return mutateText(text, next, TOKENS, { edits: 3, insert: 0.55, cut: 4 });
}

describe('fastParse builds exactly the nodes yaml builds', () => {
  const corpus = fixtureTexts();

  it('on every fixture, the cozystack values files and generated values files', () => {
    let accepted = 0;
    for (const { name, text } of corpus) if (check(text, name)) accepted++;
    // The fast path must actually be taken for plain values files (the benchmark's, most of cozystack's).
    expect(accepted).toBeGreaterThan(60);
    expect(corpus.filter((c) => c.name.startsWith('bench') && fastParse(c.text)).length).toBe(20);
    // and for recipe files: run: | scripts with blank and whitespace-only lines, escapes, non-ASCII
    for (const c of corpus.filter((c) => c.name.startsWith('recipe '))) expect(fastParse(c.text), c.name).toBeDefined();
    // and for a generated multi-document CRD bundle
    expect(fastParseAll(corpus.find((c) => c.name === 'generated CRD bundle')!.text)?.length).toBeGreaterThan(3);
  });

  it('on hand-written cases at the edge of the subset', () => {
    const cases = [
      'a: 1\n', 'a:\n', 'a:\nb:', 'a: # c\nb:  \n  # d\nc:\n- x\nd: 1\n', 'a:\n  - b: 1\n    c: 2\n  -  d\n', '- k:\n- a\n',
      'a: b]\n', 'a: b,c\n', 'a: b}\n', 'a: ...\n', 'a: -1\n', 'a: -x\n', 'a: 1.10\n', 'a: 010\n', 'a: 0o17\n', 'a: .5\n', 'a: 1e3\n',
      'a: .inf\n', 'a: .NaN\n', 'a: TRUE\n', 'a: yes\n', 'a: ~\n', 'a: null # x\n', 'a: "x" # y\n', "a: 'x'\n", 'a: ""\n', 'a: {}\n',
      'a: []\n', 'a: [ ]\n', 'a: { b: c , d: [e, "f"] }\n', 'a: [{b: c}, [d]]\n', 'a: [b, c] # x\n', 'a: b #c\n', 'a: b#c\n',
      'a: b  \n', 'a:   b   # c  \n', '1: a\n', 'true: a\n', 'a.b/c-d_e: 1\n', 'a:\n  b:\n    c: d\n  e: f\ng: h\n',
      'a:\n- b\n- c\nd: e\n', 'a:\n  - b\n  - c\n  d: e\n', 'a:\n    - b\n  c: d\n', 'a:\n  b: c\n d: e\n', 'a: b\n  c\n',
      'a: "b"\n  c\n', 'a: [b]\n  c: d\n', '- a\n', 'a: b\n---\nc: d\n', '# only\n', '', 'a: b\n...\n', 'a: |\n  x\n',
      'a: >\n  x\n', 'a: &x b\n', 'a: *x\n', 'a: !!str b\n', '? a\n: b\n', 'a: b: c\n', 'a: b:\n', 'a: -\n', 'a: - b\n',
      '- - a\n', '-\n  a: b\n', '-\n- a\n', 'a:\n  -\n    b: c\n', 'a: [b, ]\n', 'a: [, b]\n', 'a: {b}\n', 'a: {b: }\n',
      'a: {b:c}\n', 'a: [b: c]\n', 'a: [b c, d]\n', 'a: http://x/y\n', 'a: [http://x]\n', 'a: 50%\n', 'a: %x\n', 'a: @x\n',
      'a: x\\y\n', 'a: "x\\y"\n', "a: 'it''s'\n", 'a: "x"y\n', 'a: "x"#y\n', 'a:b: c\n', 'a :b\n', 'a : b\n', ' a: b\n',
      'a: b\n\n\n  # deep comment\nc: d\n', 'a:\n\n  b: c\n', 'a: é\n', '# é\na: b # é\n', 'a: b\r\n', 'a: b\n\tc: d\n',
      `a: ${'x'.repeat(1100)}\n`, 'a: b', 'a:\n  b: c', 'a:\n- b', 'a: [b,\n  c]\n', 'a: "b\n  c"\n', 'a: {{ x }}\n',
      '{}\n', '[]\n', '{} # c\n', '{a: b}\n', '[a, b]\n', '{}\nb: c\n', '[a]\n- b\n', '- a\n- b: c\n', ' {}\n', 'a: "{{ x }}"\n',
      'a: [-]\n', 'a: [-a, -1, - b]\n', 'a: [a, -]\n', 'a: {b: -}\n', 'a: {b: -c}\n', 'a: -]\n', 'a: x{{ y }}\n', 'a: {{ x }}\n', 'a: { {x: y} }\n', '{{ x }}: a\n', 'a:\n  {{ x }}: 1\n', 'a: [{{ x }}]\n',
      'a:\n  - b: c\n  - d\n', '- a: b\n  c: d\n', 'k: v\n- x\n', 'a:\n  b: c\n  - d\n', 'a:\n  b\n', 'a:\n  "b"\n',
      // documents
      'a: 1\n---\n', '---\na: 1\n', '# c\n---\na: 1\n', 'a: 1\n---\n# c\n', 'a: 1\n---\n---\nb: 2\n', 'a: 1\n--- \nb: 2\n', '---\n',
      '---\n---\n', 'a: 1\n---\n- b\n', 'a: 1\n---\n  b: 2\n', 'a: 1\n--- # c\nb: 2\n', 'a: 1\n---x\nb: 2\n', 'a: 1\n----\n', '---\n{}\n',
      'a: 1\n...\n---\nb: 2\n', 'a: |\n  x\n---\nb: 1\n',
      // multi-line plain scalars
      'a: foo\n  bar\n', 'a: foo\n  bar\n\n  baz\n   qux  \nb: 1\n', '- foo\n  bar\n- x\n', 'a: 1\n  2\n', 'a: x\n  "y"\n', 'a: x\n  - y\n',
      'a: x\n  [y]\n', 'a: x\n  &a\n', 'a: x\n  y: z\n', 'a: x\n  y #z\n', 'a: x # c\n  y\n', 'a: x\n  # c\n  y\n', 'a: x\n  ---\n',
      'a: x\n  y\n b: c\n', '- a: x\n   y\n  b: z\n', 'a:\n  b: x\n    y\n  c: z\n', 'a: x\n  \n  y\n', 'a: true\n  false\n', 'a: x\n  é\n',
      // multi-line quoted scalars
      "a: 'x\n  y'\n", "a: 'x\n\n  y'\n", "a: 'x''s\n  y''z'\n", "a: 'x\n  y' # c\n", "a: 'x\n  y' z\n", "a: 'x\ny'\n", "a: '\n  y'\n",
      'a: "x\n  y"\n', 'a: "x\n  y\\"\n', "a: 'x  \n  y  '\n", "a: 'x\n  y'\n  z\n", "- 'x\n  y'\n- z\n", "a: 'x\n  # y'\n", "a: 'x\n", "a: 'x\n  y\n",
      "a: 'it''s'\n", "a: ''''\n", "a: 'x''\n", "a: ['it''s', b]\n",
      // block scalars
      'a: |-\n  x\n   y\n\n  z\nb: 1\n', 'a: |\n  x\n\n\nb: 1\n', 'a: |\n  x\n  # c\n # d\nb: 1\n', 'a: >-\n  x\n  y\n\n  z\nb: 1\n', '- |\n  x\n- y\n',
      'a: |-\n  x', 'a: |\nb: 1\n', 'a:\n  b: |-\n    x\n  c: 1\n', 'a: |+\n  x\n', 'a: |2\n  x\n', 'a: | # c\n  x\n', 'a: >\n  x\n   y\n', 'a: >\n  x\n\n\n  y\n',
      'a: |\n\n  x\n', 'a: |\n  x\n  \n  y\n', 'a: |\n  x\n y\n', 'a: |\n  é\n', 'a: |\n  {{ x }}\n', '- a: |\n    x\n  b: 1\n', 'a: |\n  x\n---\n', 'a: >-\n  x\nb: |\n  y\n',
      // blank and whitespace-only lines in block scalars: leading, inner, trailing, more-indented
      'a: |\n  x\n     \n  y\n', 'a: |\n  x\n     \nb: 1\n', 'a: |-\n  x\n     \n  \n', 'a: |\n \n  x\n', 'a: |\n    \n  x\n', 'a: >\n  x\n  \n  y\n',
      'a: >\n  x\n   \n  y\n', 'a: >\n\n  x\n  y\n', 'a: >\n \n\n  x\n\n\n  y\n', 'a: |\n\nb: 1\n', 'a: |\n  \nb: 1\n', '- |\n  x\n  \n- y\n', 'a: |\n  é ✓\n',
      // escapes in double quotes, non-ASCII, long lines and keys, texts without a document
      'a: "x\\ny"\n', 'a: "\\u00e9\\x41\\U0001F600\\\\\\"\\/\\ \\_"\n', 'a: "\\q"\n', 'a: "\\u12"\n', 'a: "\\U00110000"\n', 'a: "x\\\\" # c\n',
      'a: "x\\"\n  y"\n', 'a: ["x\\ty", "\\""]\n', 'a: {"k": 1}\n', 'a: "é"\n', "a: 'é'\n", 'a: é ✓ x\n', 'a: x\n  é\n', 'a: \u00a0x\u00a0\n', 'a: x\u0080\n',
      // quoted keys
      '"a": 1\n', "'a b': 1\n", '"a":1\n', '"a" : 1\n', '- "a": 1\n  b: 2\n', '- "a: b"\n', '"a\\nb": 1\n', '"a": 1\n"a": 2\n', 'a:\n  "k": |\n    x\n', '"a\n  b": 1\n', `"${'k'.repeat(1100)}": 1\n`,
      `# ${'c'.repeat(1100)}\na: 1\n`, `a: ${'x'.repeat(1100)}\n`, `${'k'.repeat(1100)}: 1\n`, `a: |\n  ${'x'.repeat(1100)}\n`, `a: [${'x'.repeat(1100)}, b]\n`, `a: {k: ${'x'.repeat(1100)}, j: b}\n`, `- {k: v, j: ${'x'.repeat(1100)}}\n`, `a: "${'x'.repeat(1100)}"\n`, '\n', '  \n# c\n\n',
    ];
    let accepted = 0;
    for (const c of cases) if (check(c, JSON.stringify(c))) accepted++;
    expect(accepted).toBeGreaterThan(40);
  });

  it('on 4,000 random mutations of the corpus (accepted ones must match yaml)', () => {
    const next = rng(20261130);
    let accepted = 0;
    for (let i = 0; i < 4000; i++) {
      const base = corpus[Math.floor(next() * corpus.length)]!.text;
      const text = mutate(base, next);
      if (check(text, `mutation ${i}`)) accepted++;
    }
    expect(accepted).toBeGreaterThan(500);
  });
});
