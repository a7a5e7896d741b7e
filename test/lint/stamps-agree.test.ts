/**
 * One rule for "which producer stamps this pin" (src/producers/stamps.ts):
 * explain (`producersFor`), `lint()`'s default and `lintRepo` on a real tree
 * must count the same producers for every pin/write shape. Each row is its own
 * directory of one temp tree with real Makefiles; the build entry is absent, so
 * every producer is unbuilt and `producer-not-built` lists the pins it stamps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import type { Config } from '../../src/config/types.js';
import { lint, lintRepo, type LintRepoResult } from '../../src/lint/index.js';
import type { Finding, Pin } from '../../src/model/index.js';
import { producersFor } from '../../src/producers/index.js';
import { makeRepo, type TestRepo } from '../support/repo.js';

const REF = `ghcr.io/acme/x:v1@sha256:${'a'.repeat(64)}`;
const SET = 'IMG=ghcr.io/acme/x:v2';

interface Row {
  name: string;
  /** Files of the row's directory (its Makefile included). */
  files: Record<string, string>;
  /** The pin asked about: its file in the row's directory and its line. */
  pin: { file: string; line: number };
  /** Producers expected to stamp it. */
  stamped: number;
}

const makefile = (...targets: string[][]) => targets.map(([name, ...lines]) => `${name}:\n${lines.map((l) => `\t${l}`).join('\n')}\n`).join('');

const ROWS: Row[] = [
  {
    name: 'exact key',
    files: { 'values.yaml': `a:\n  image: ${REF}\n`, Makefile: makefile(['image', `${SET} yq -i '.a.image = strenv(IMG)' values.yaml`]) },
    pin: { file: 'values.yaml', line: 2 },
    stamped: 1,
  },
  {
    name: 'key spelled with brackets and a leading dot',
    files: { 'values.yaml': `a:\n  image: ${REF}\n`, Makefile: makefile(['image', `${SET} yq -i '.a["image"] = strenv(IMG)' values.yaml`]) },
    pin: { file: 'values.yaml', line: 2 },
    stamped: 1,
  },
  {
    name: 'list item [i] under a written list key',
    files: { 'values.yaml': `images:\n  - ${REF}\n`, Makefile: makefile(['image', `${SET} yq -i '.images = strenv(IMG)' values.yaml`]) },
    pin: { file: 'values.yaml', line: 2 },
    stamped: 1,
  },
  {
    name: 'list item written by its index',
    files: { 'values.yaml': `images:\n  - ${REF}\n`, Makefile: makefile(['image', `${SET} yq -i '.images[0] = strenv(IMG)' values.yaml`]) },
    pin: { file: 'values.yaml', line: 2 },
    stamped: 1,
  },
  {
    name: 'another index of the list',
    files: { 'values.yaml': `images:\n  - ${REF}\n  - ${REF}\n`, Makefile: makefile(['image', `${SET} yq -i '.images[1] = strenv(IMG)' values.yaml`]) },
    pin: { file: 'values.yaml', line: 2 },
    stamped: 0,
  },
  {
    name: 'parent key written',
    files: { 'values.yaml': `a:\n  image: ${REF}\n`, Makefile: makefile(['image', `${SET} yq -i '.a = strenv(IMG)' values.yaml`]) },
    pin: { file: 'values.yaml', line: 2 },
    stamped: 1,
  },
  {
    name: 'child key of a split map written',
    files: { 'values.yaml': 'a:\n  image:\n    repository: ghcr.io/acme/x\n    tag: v1\n', Makefile: makefile(['image', "TAG=v2 yq -i '.a.image.tag = strenv(TAG)' values.yaml"]) },
    pin: { file: 'values.yaml', line: 3 },
    stamped: 1,
  },
  {
    name: 'sibling key sharing a prefix',
    files: { 'values.yaml': `a:\n  image2: ${REF}\n`, Makefile: makefile(['image', `${SET} yq -i '.a.image = strenv(IMG)' values.yaml`]) },
    pin: { file: 'values.yaml', line: 2 },
    stamped: 0,
  },
  {
    name: 'another key of the same file',
    files: { 'values.yaml': `a:\n  image: ${REF}\nb:\n  image: ${REF}\n`, Makefile: makefile(['image', `${SET} yq -i '.a.image = strenv(IMG)' values.yaml`]) },
    pin: { file: 'values.yaml', line: 4 },
    stamped: 0,
  },
  {
    name: 'keyless pin (scraped from YAML that does not parse) in a file with a keyed write',
    files: { 'values.yaml': `a:\n  image: ${REF}\n b: [\n`, Makefile: makefile(['image', `${SET} yq -i '.a.image = strenv(IMG)' values.yaml`]) },
    pin: { file: 'values.yaml', line: 2 },
    stamped: 0,
  },
  {
    name: 'whole-file redirect into a .tag file',
    files: { 'images/x.tag': `${REF}\n`, Makefile: makefile(['image', `echo "ghcr.io/acme/x:v2" > images/x.tag`]) },
    pin: { file: 'images/x.tag', line: 1 },
    stamped: 1,
  },
  {
    name: 'whole-file sed (pattern matching no line) on a keyed pin',
    files: { 'values.yaml': `a:\n  image: ${REF}\n`, Makefile: makefile(['image', `sed -i "s|image: gone/.*|image: $$IMG|" values.yaml`]) },
    pin: { file: 'values.yaml', line: 2 },
    stamped: 1,
  },
  {
    name: 'sed narrowed to lines: the matched line',
    files: { 'values.yaml': `a:\n  image: registry.k8s.io/proxy:v1\nb:\n  image: ${REF}\n`, Makefile: makefile(['image', `sed -i -E "s|image: ghcr\\.io/.+/x:[^[:space:]]+|image: $$IMG|" values.yaml`]) },
    pin: { file: 'values.yaml', line: 4 },
    stamped: 1,
  },
  {
    name: 'sed narrowed to lines: another line of the file',
    files: { 'values.yaml': `a:\n  image: ghcr.io/acme/y:v1\nb:\n  image: ${REF}\n`, Makefile: makefile(['image', `sed -i -E "s|image: ghcr\\.io/.+/x:[^[:space:]]+|image: $$IMG|" values.yaml`]) },
    pin: { file: 'values.yaml', line: 2 },
    stamped: 0,
  },
  {
    name: 'keyless pin (Dockerfile FROM) and a sed on its line',
    files: { Dockerfile: `FROM ${REF}\n`, Makefile: makefile(['image', `sed -i "s|^FROM .*|FROM $$IMAGE|" Dockerfile`]) },
    pin: { file: 'Dockerfile', line: 1 },
    stamped: 1,
  },
  {
    name: 'same key in another file',
    files: { 'values.yaml': `a:\n  image: ${REF}\n`, 'other/values.yaml': 'a:\n  image: none\n', Makefile: makefile(['image', `${SET} yq -i '.a.image = strenv(IMG)' other/values.yaml`]) },
    pin: { file: 'values.yaml', line: 2 },
    stamped: 0,
  },
  {
    name: 'two producers write the key',
    files: {
      'values.yaml': `a:\n  image: ${REF}\n`,
      Makefile: makefile(['image', `${SET} yq -i '.a.image = strenv(IMG)' values.yaml`], ['release', `${SET} yq -i '.a = strenv(IMG)' values.yaml`]),
    },
    pin: { file: 'values.yaml', line: 2 },
    stamped: 2,
  },
];

const dirOf = (i: number) => `r${String(i).padStart(2, '0')}`;

/** How many producers `producer-not-built` says stamp the pin (every producer here is unbuilt). */
function stampCount(findings: readonly Finding[], pin: Pin): number {
  return findings.filter((f) => f.rule === 'producer-not-built' && (f.evidence as { pins: { file: string; line: number }[] }).pins.some((p) => p.file === pin.file && p.line === pin.line)).length;
}

describe('every consumer of "which producer stamps this pin" agrees', () => {
  let repo: TestRepo;
  let config: Config;
  let result: LintRepoResult;
  beforeAll(async () => {
    repo = makeRepo('pinwatch-stamps-agree-');
    repo.write(Object.fromEntries(ROWS.flatMap((row, i) => Object.entries(row.files).map(([f, text]) => [`${dirOf(i)}/${f}`, text]))));
    config = { ...defaultConfig(), firstParty: ['ghcr.io/acme/'] };
    result = await lintRepo(repo.dir, config, { baseline: false });
  });
  afterAll(() => repo.cleanup());

  it('the tree has no build entry, so every producer is unbuilt and none is lost', () => {
    expect(result.model.producers.every((p) => !p.built)).toBe(true);
    expect(result.model.producers.length).toBe(ROWS.reduce((n, r) => n + (r.files.Makefile!.match(/^\S+:$/gm) ?? []).length, 0));
  });

  it.each(ROWS.map((row, i) => [row.name, row, i] as const))('%s', (_name, row, i) => {
    const file = `${dirOf(i)}/${row.pin.file}`;
    const pin = result.scan.pins.find((p) => p.file === file && p.line === row.pin.line);
    expect(pin, `a pin at ${file}:${row.pin.line}`).toBeDefined();
    const explain = producersFor(result.model, pin!.file, pin!.keyPath, pin!.line).length;
    const byLint = stampCount(lint({ pins: result.scan.pins, model: result.model, config }).findings, pin!);
    const byRepo = stampCount(result.findings, pin!);
    expect({ explain, lint: byLint, lintRepo: byRepo }).toEqual({ explain: row.stamped, lint: row.stamped, lintRepo: row.stamped });
    const noProducer = result.findings.some((f) => f.rule === 'no-producer' && f.file === pin!.file && f.line === pin!.line);
    expect(noProducer).toBe(row.stamped === 0);
  });
});
