/**
 * The YAML collector's left-out subtrees (inert.ts, fastParseAll's `inert`)
 * against the fully built tree: whenever fastParseAll accepts a text it must
 * accept it with `inert` too (and refuse the same texts), every node must be the
 * same except that a left-out block map or sequence is empty (same kind, same
 * range), and collectYaml must give the same pins, problems and left-out values,
 * field for field, as with every node built. On fixtures, generated CRD bundles
 * with refs, repeated keys and ref-like text placed deep inside, next to
 * document markers and in block scalars, hand-written edge cases and mutations.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMap, isPair, isScalar, isSeq } from 'yaml';
import { generateManifest } from '../../bench/scan/manifest.mjs';
import { prng } from '../../bench/prng.mjs';
import { fastParseAll } from '../../src/collect/yaml/fast-parse.js';
import { inertRegions } from '../../src/collect/yaml/inert.js';
import { collectYaml } from '../../src/collect/yaml/collect.js';
import { COZYSTACK_FIXTURE, cozystackFiles } from '../support/cozystack.js';
import { collectorYamlFixtures, mutateText } from '../support/yaml-fixtures.js';

/** How many collections of `full` the skimmed tree left out (empty stand-ins); fails on any other difference. */
function compareTrees(full: unknown, skimmed: unknown, where: string): number {
  const same = (a: unknown, b: unknown): void => {
    if (JSON.stringify(a) !== JSON.stringify(b)) expect(b, where).toEqual(a); // expect only on a difference: these trees are large
  };
  if (isScalar(full)) {
    if (!isScalar(skimmed)) expect(skimmed, where).toBe(full);
    const s = skimmed as typeof full;
    same([full.value, full.source, full.type, full.range, full.format], [s.value, s.source, s.type, s.range, s.format]);
    return 0;
  }
  const kind = (n: unknown): string => (isMap(n) ? 'map' : isSeq(n) ? 'seq' : 'other');
  const f = full as { items: unknown[]; range: unknown; flow?: boolean };
  const s = skimmed as { items: unknown[]; range: unknown; flow?: boolean };
  same([kind(full), f.range, !!f.flow], [kind(skimmed), s.range, !!s.flow]);
  if (s.items.length === 0 && f.items.length > 0) return 1;
  same(f.items.length, s.items.length);
  let left = 0;
  f.items.forEach((item, i) => {
    const other = s.items[i];
    if (isPair(item)) {
      if (!isPair(other)) expect(other, where).toBe(item);
      left += compareTrees(item.key, (other as typeof item).key, `${where}/key${i}`);
      left += compareTrees(item.value, (other as typeof item).value, `${where}/${String((item.key as { value?: unknown }).value)}`);
    } else left += compareTrees(item, other, `${where}[${i}]`);
  });
  return left;
}

const CTX = { file: 'bundle.yaml', isFirstParty: (name: string) => name.startsWith('ghcr.io/acme/') };
/** A Helm values file: its `name` keys are read too (an image map holding only a name is counted). */
const VALUES_CTX = { ...CTX, file: 'charts/app/values.yaml' };

/** Checks one text both ways; returns how many collections were left out (-1 when the fast parser refuses it). */
function check(text: string, label: string, ctx = CTX): number {
  const full = fastParseAll(text);
  const skimmed = fastParseAll(text, inertRegions(text, ctx === VALUES_CTX));
  if (!full) {
    expect(skimmed, `${label}: accepted only with inert\n${text}`).toBeUndefined();
    return -1;
  }
  expect(skimmed, `${label}: refused with inert\n${text}`).toBeDefined();
  expect(skimmed!.length, label).toBe(full.length);
  let left = 0;
  full.forEach((root, d) => (left += compareTrees(root, skimmed![d], `${label} doc ${d}`)));
  const collected = collectYaml(text, ctx);
  const built = collectYaml(text, ctx, { built: true });
  if (JSON.stringify(collected) !== JSON.stringify(built)) expect(collected, `${label}\n${text}`).toEqual(built);
  return left;
}

const DIGEST = `sha256:${'ab'.repeat(32)}`;
/** Lines that give the walk something to read (or look as if they might), placed at a line's indentation. */
const PLANTS = [
  'image: ghcr.io/acme/app:v1',
  `image: ghcr.io/acme/app@${DIGEST}`,
  'sidecarImage: quay.io/x/y:2',
  'image:',
  'image: ""',
  'image: 1.10',
  'tag: v1.2.3',
  `digest: ${DIGEST}`,
  'repository: ghcr.io/acme/split',
  'registry: registry.k8s.io',
  'value: registry.k8s.io/pause:3.9',
  `value: 'ghcr.io/acme/quoted:v2'`,
  'value: "ghcr.io/acme/esc\\x3av3"',
  'args: ["--worker-image=ghcr.io/acme/worker:v4", "--other=1"]',
  'command: --init-image=$IMAGE',
  'ref: ko://github.com/acme/app/cmd/app',
  'chartUrl: oci://ghcr.io/acme/charts',
  'chartRef: digest=' + DIGEST,
  'note: |-\n  image: ghcr.io/acme/in-block:v1\n  tag: v9',
  'one: |\n  ghcr.io/acme/one-line-block:v5',
  'folded: >-\n  ghcr.io/acme/folded:v6',
  'url: https://example.com:8443/path',
  'time: 10:30',
  'mail: ops@example.com',
  'dup: 1',
  'image:\n  name: operator',
  'image:\n  pullPolicy: Always\n  name: daprd',
];

/**
 * A generated bundle with `n` plants, each inserted as a new key before a
 * random key line at its indentation (the generator's text lines never look
 * like keys): deep in schemas, first in a nested map, last before a `---`.
 */
function plantedBundle(seed: number, kb: number, n: number): string {
  const rand = prng(seed);
  const lines = generateManifest(kb, seed).split('\n');
  for (let k = 0; k < n; k++) {
    const keys = lines.flatMap((l, i) => (/^ *[A-Za-z0-9_.-]+:( |$)/.test(l) ? [i] : []));
    const at = keys[Math.floor(rand() * keys.length)]!;
    const pad = ' '.repeat(lines[at]!.length - lines[at]!.trimStart().length);
    const plant = PLANTS[Math.floor(rand() * PLANTS.length)]!;
    lines.splice(at, 0, ...plant.split('\n').map((l) => pad + l));
  }
  return lines.join('\n');
}

function fixtureTexts(): { name: string; text: string }[] {
  const out = collectorYamlFixtures();
  for (const f of cozystackFiles()) if (f.kind === 'yaml') out.push({ name: f.path, text: readFileSync(join(COZYSTACK_FIXTURE, f.path), 'utf8') });
  return out;
}

describe('left-out subtrees change nothing the collector reports', () => {
  it('leaves out most of a plain CRD bundle, and the comparison sees what a wrong `inert` loses', () => {
    const text = generateManifest(300, 3);
    // a left-out value counts once however large: here each document's `versions`
    expect(check(text, 'bundle')).toBeGreaterThan(3);
    const count = (n: unknown): number =>
      isScalar(n) ? 1 : isMap(n) ? 1 + n.items.reduce((a, p) => a + count(p.key) + count(p.value), 0) : isSeq(n) ? 1 + n.items.reduce((a: number, i) => a + count(i), 0) : 0;
    const full = fastParseAll(text)!.reduce((a, r) => a + count(r), 0);
    const skimmed = fastParseAll(text, inertRegions(text))!.reduce((a, r) => a + count(r), 0);
    expect(skimmed * 10).toBeLessThan(full);
    // an `inert` that says nothing is read leaves out the planted refs with the rest (what check's collect comparison would catch)
    const planted = plantedBundle(5, 40, 30);
    const refs = (n: unknown): number =>
      isScalar(n) ? (String(n.value).includes('ghcr.io/acme/') ? 1 : 0) : isMap(n) ? n.items.reduce((a, p) => a + refs(p.value), 0) : isSeq(n) ? n.items.reduce((a: number, i) => a + refs(i), 0) : 0;
    const all = fastParseAll(planted)!.reduce((a, r) => a + refs(r), 0);
    expect(all).toBeGreaterThan(5);
    expect(fastParseAll(planted, inertRegions(planted))!.reduce((a, r) => a + refs(r), 0)).toBe(all);
    expect(fastParseAll(planted, { next: () => Infinity })!.reduce((a, r) => a + refs(r), 0)).toBeLessThan(all / 2);
  });

  it('on generated bundles with refs, repeated keys and ref-like text planted deep, at document ends and in block scalars', () => {
    let left = 0;
    let pins = 0;
    let problems = 0;
    let accepted = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const text = plantedBundle(seed, 6 + (seed % 5) * 6, 4 + (seed % 7) * 3);
      const n = check(text, `planted ${seed}`);
      if (n >= 0) accepted++;
      if (n > 0) left += n;
      const result = collectYaml(text, CTX);
      pins += result.pins.length;
      problems += result.problems.length;
    }
    expect(accepted).toBeGreaterThan(15);
    expect(left).toBeGreaterThan(100);
    expect(pins).toBeGreaterThan(100);
    expect(problems).toBeGreaterThan(20);
  });

  it('as a Helm values file (name-only image maps counted), on the same planted bundles', () => {
    let leftOut = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const text = plantedBundle(seed, 6 + (seed % 5) * 6, 4 + (seed % 7) * 3);
      if (check(text, `planted values ${seed}`, VALUES_CTX) >= 0) leftOut += (collectYaml(text, VALUES_CTX).leftOut ?? []).filter((l) => l.reason.startsWith('Helm values image maps with a name and no tag or digest')).length;
    }
    expect(leftOut).toBeGreaterThan(3);
  });

  it('on every fixture and the cozystack values files', () => {
    let accepted = 0;
    for (const { name, text } of fixtureTexts()) if (check(text, name) >= 0) accepted++;
    expect(accepted).toBeGreaterThan(60);
  });

  it('on hand-written cases at the edges of the skim', () => {
    const D = 'r:\n  s:\n';
    const cases = [
      // what the skim takes: maps, sequences, compact sequences, plain, quoted, flow and block values
      `${D}    a:\n      b: c\n      d:\n      - e\n      - f: g\n        h: i\n    j: k\n`,
      `${D}    a:\n    - b\n    - c: d\n    e: f\n`,
      `${D}    a:\n      b: 'x\n        y'\n      c: "q"\n      d: [1, {e: f}]\n      g: |-\n        text: here\n        # not a comment\n      h: >\n        folded\n        text\n`,
      `${D}    a:\n      b: plain\n        continued\n\n        again\n      c: 1\n`,
      // values and keys the skim leaves to the parser (built as always)
      `${D}    a:\n      "quoted": 1\n      b: 2\n`, `${D}    a:\n      b: 1\n      b: 2\n`, `${D}    a:\n      b:\n        c: 1\n        c: 1\n`,
      `${D}    a:\n      b: "x\n        y"\n`, `${D}    a:\n      b: |\n\n        x\n`, `${D}    a:\n      b: |\n             \n        x\n`, `${D}    a:\n      b: |\n          \n        x\n`, `${D}    a:\n      b: |\n      c: 1\n`,
      `${D}    a:\n      b: x # c\n        y\n`, `${D}    a:\n      b: x\n        # c\n        y\n`, `${D}    a:\n      true: 1\n`, `${D}    a:\n      1: x\n`,
      `${D}    a:\n      ${'k'.repeat(17)}: 1\n${Array.from({ length: 20 }, (_, i) => `      k${i}: ${i}\n`).join('')}      k3: again\n`,
      // what leaves the subset deep inside (the whole text goes to yaml, with inert or not)
      `${D}    a:\n      b: c\n     d: e\n`, `${D}    a:\n      b: c\n        d: e\n`, `${D}    a:\n      b: &x c\n`, `${D}    a:\n      b: *x\n`,
      `${D}    a:\n      b: !!str c\n`, `${D}    a:\n      - - x\n`, `${D}    a:\n      -\n      b: 1\n`, `${D}    a:\n      b: c: d\n`, `${D}    a:\n      b: |+\n        x\n`,
      `${D}    a:\n      b: >\n        x\n         y\n`, `${D}    a:\n      b: 'x\n      y'\n`, `${D}    a:\n      b: 'x\n        y' z\n`, `${D}    a:\n      b: 'x\n        y'\n        z\n`,
      `${D}    a:\n      b: [x,\n        y]\n`, `${D}    a:\n      b: 'x\u00e9\n        y'\n`, `${D}    a:\n      b: x\n        y: z\n`,
      // block scalars whose text looks like keys, comments and less-indented lines
      `${D}    a:\n      b: |\n        Example:\n          x: 1\n      # c\n      d: 2\n`, `${D}    a:\n      b: |\n        Example:\n          x: 1\n  # c\n       e: 1\n`,
      `${D}    a:\n      b: |\n        x\n  # c\n    y: 1\n`, `${D}    a:\n      b: |-\n        x\n           \n      c: 1\n`, `${D}    a:\n      b: |-\n        x\n\n`, `${D}    a:\n      b: |-\n        x`,
      `${D}    a:\n      b: >-\n        x\n\n        y\n      c: 1\n`,
      // refs the walk reads, right before and after a left-out value, and at document ends
      `${D}    a:\n      b: c\n    image: ghcr.io/acme/a:v1\n`, `${D}    image: ghcr.io/acme/a:v1\n    a:\n      b: c\n`, `${D}    a:\n      b: c\n---\n${D}    a:\n      image: ghcr.io/acme/a:v1\n`,
      `${D}    a:\n      b: c\n---\n`, `${D}    a:\n      b: c\n...\n`, `${D}    a:\n      b: c\n---\n---\nx: 1\n`,
      `${D}    image:\n      repository: ghcr.io/acme/a\n      tag: v1\n`, `${D}    image:\n      tag: v1\n`, `${D}    a:\n      registry: r.io\n      name: x\n`,
      // the document's root keys, and what collectGlobal and collectKustomize read below theirs
      'global:\n  registry:\n    address: r.io\n  images:\n    app:\n      repository: acme/app\n      tag: v1\n',
      'global:\n  image:\n    registry:\n      nested: r.io\n', 'resources:\n- a.yaml\nimages:\n- name: app\n  newName: ghcr.io/acme/app\n  extra:\n    x: y\n',
      '- a:\n    b:\n      c: d\n- e\n', 'a:\n  b:\n  - c:\n      d: e\n', 'a:\n- b:\n    c: d\n',
    ];
    let left = 0;
    for (const c of cases) left += Math.max(0, check(c, JSON.stringify(c)));
    expect(left).toBeGreaterThan(15);
  });

  it('on 2,000 random mutations of planted bundles (indentation, markers, quotes, refs)', () => {
    const rand = prng(20261201);
    const tokens = [' ', '  ', '\n', '#', ' #', ': ', '- ', '"', "'", "''", '|', '>', '|-', '\n---\n', '...', '&a ', '*a', '\\', '\t', 'é', ':x', '@',
      '\n  image: ghcr.io/acme/m:v1', '\n  tag: v1', 'image=', 'ko://x', 'oci://x', '\n    dup: 1\n    dup: 2', '\n- x', '\n  - y: z', 'key:\n', '\n\n'];
    const bases: string[] = [];
    for (let seed = 100; bases.length < 12; seed++) {
      const text = plantedBundle(seed, 3, 4);
      if (fastParseAll(text)) bases.push(text);
    }
    let accepted = 0;
    let left = 0;
    for (let i = 0; i < 2000; i++) {
      const text = mutateText(bases[Math.floor(rand() * bases.length)]!, rand, tokens, { edits: 2, insert: 0.6, cut: 3 });
      const n = check(text, `mutation ${i}`);
      if (n >= 0) accepted++;
      if (n > 0) left += n;
    }
    expect(accepted).toBeGreaterThan(200);
    expect(left).toBeGreaterThan(200);
  });
});
