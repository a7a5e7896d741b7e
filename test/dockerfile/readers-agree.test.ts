/**
 * The scan collector and build inputs read Dockerfiles with the one reader
 * (src/dockerfile/). These are the cases where the old per-line regex collector
 * disagreed with it; each is checked through both paths: the pins scan reports
 * (with exact spans) and the inputs a build of the file depends on.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectDockerfile } from '../../src/collect/index.js';
import { deriveBuildInputs, inputMatcher } from '../../src/sources/index.js';
import { spanMismatches } from '../support/span-check.js';
import { acmeContext, spanTexts } from '../support/collect.js';

interface Case {
  name: string;
  dockerfile: string;
  /** `raw → name:tag @line` per pin. */
  pins: string[];
  spans: string[][];
  /** Of config.yaml, README.md, docs/readme.md: what a build of the last stage reads. */
  inputs: string[];
}

const CASES: Case[] = [
  {
    name: 'a heredoc body is not read as instructions (no phantom FROM evil:latest)',
    dockerfile: ['FROM alpine:3.20', 'COPY config.yaml /etc/', 'RUN <<EOF', 'FROM evil:latest', 'COPY docs /docs', 'EOF', ''].join('\n'),
    pins: ['alpine:3.20 → docker.io/library/alpine:3.20 @1'],
    spans: [['ref=alpine:3.20']],
    inputs: ['config.yaml'],
  },
  {
    name: 'FROM \\ continued onto ${BASE} on the next line resolves the ARG default',
    dockerfile: ['ARG BASE=golang:1.22', 'ARG STAGE=build', 'FROM \\', '  ${BASE} AS build', 'COPY config.yaml /etc/', 'FROM \\', '  ${STAGE}', 'COPY README.md /', ''].join('\n'),
    pins: ['${BASE} → docker.io/library/golang:1.22 @4'],
    spans: [['ref=${BASE}']],
    inputs: ['config.yaml', 'README.md'],
  },
  {
    name: '${V:+alt} gives alt when V is set',
    dockerfile: ['ARG V=1', 'FROM nginx:${V:+1.27} AS web', 'COPY config.yaml /etc/', 'FROM ${V:+web}', 'COPY README.md /', ''].join('\n'),
    pins: ['nginx:${V:+1.27} → docker.io/library/nginx:1.27 @2'],
    spans: [['ref=nginx:${V:+1.27}']],
    inputs: ['config.yaml', 'README.md'],
  },
];

const FILES = ['config.yaml', 'README.md', 'docs/readme.md'];

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'pinwatch-dockerfile-'));
  mkdirSync(join(root, 'docs'));
  for (const f of FILES) writeFileSync(join(root, f), 'x');
  CASES.forEach((c, i) => writeFileSync(join(root, `Dockerfile.${i}`), c.dockerfile));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.each(CASES.map((c, i) => ({ ...c, i })))('$name', ({ dockerfile, pins, spans, inputs, i }) => {
  it('scan collector: the pins, with spans that slice back to the written ref', () => {
    const r = collectDockerfile(dockerfile, acmeContext('Dockerfile'));
    expect(r.problems).toEqual([]);
    expect(r.pins.map((p) => `${p.raw} → ${p.ref.name}:${p.ref.tag} @${p.line}`)).toEqual(pins);
    expect(r.pins.map((p) => spanTexts(dockerfile, p))).toEqual(spans);
    expect(spanMismatches(dockerfile, r.pins)).toEqual([]);
  });

  it('build inputs: the stages a build of the file runs', async () => {
    const recipe = { makefile: 'Makefile', target: 'image', line: 1, dockerfile: `Dockerfile.${i}`, context: '.', repositories: ['ghcr.io/acme/a'], stamps: [], command: `docker build -f Dockerfile.${i} .` };
    const r = await deriveBuildInputs(root, { image: 'a', recipe });
    expect(r.unknownReason).toBeUndefined();
    const m = inputMatcher(r);
    expect(FILES.filter((f) => m.match(f))).toEqual(inputs);
  });
});
