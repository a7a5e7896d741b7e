import { describe, expect, it } from 'vitest';
import { spanMismatches } from '../../../test/support/span-check.js';
import { acmeContext, fixtureText, spanTexts } from '../../../test/support/collect.js';
import { collectDockerfile } from './index.js';

const D = 'sha256:0a92e861ead179dd6b46f475fd8878d44b3cfa40ce4d7a8ff92f790d54250d25';

describe('Dockerfile FROM', () => {
  const text = fixtureText(import.meta.url, 'Dockerfile');
  const result = collectDockerfile(text, acmeContext('Dockerfile'));
  it('reads FROM refs, resolves ARG defaults, skips stages and scratch', () => {
    expect(result.pins.map((p) => `${p.shape} ${p.form} ${p.raw} → ${p.ref.name}${p.ref.tag ? `:${p.ref.tag}` : ''} @${p.line}`)).toEqual([
      'dockerfile tag golang:${GO_VERSION}-alpine → docker.io/library/golang:1.23-alpine @5',
      `dockerfile tag+digest ghcr.io/acme/base:v1@${D} → ghcr.io/acme/base:v1 @9`,
      'dockerfile tag ${BASE} → gcr.io/distroless/static:nonroot @12',
    ]);
    expect(result.pins[1]!.firstParty).toBe(true);
  });
  it('spans cover the stored text of the image', () => {
    expect(result.pins.map((p) => spanTexts(text, p))).toEqual([
      ['ref=golang:${GO_VERSION}-alpine'],
      [`ref=ghcr.io/acme/base:v1@${D}`],
      ['ref=${BASE}'],
    ]);
    expect(spanMismatches(text, result.pins)).toEqual([]);
  });
  it('reports unresolvable and invalid images', () => {
    expect(result.problems.map((p) => `${p.code}:${p.line}`)).toEqual(['unresolved-ref:13', 'invalid-ref:14']);
    expect(result.problems[0]!.reason).toContain('ARG UNSET');
    expect(result.problems[1]!.reason).toContain('lowercase');
  });
});

describe('ARG defaults that use other ARGs', () => {
  it('expands chained defaults and names the unknown platform ARG', () => {
    const text = ['ARG REG=ghcr.io/acme', 'ARG BASE=${REG}/base:v1', 'ARG RT=gcr.io/distroless/static:nonroot-${TARGETARCH}', 'FROM $BASE', 'FROM ${RT}', 'FROM ${MISSING:-alpine:3.20}', ''].join('\r\n');
    const r = collectDockerfile(text, acmeContext('Dockerfile'));
    expect(r.pins.map((p) => `${p.raw} → ${p.ref.name}:${p.ref.tag} @${p.line}`)).toEqual(['$BASE → ghcr.io/acme/base:v1 @4', '${MISSING:-alpine:3.20} → docker.io/library/alpine:3.20 @6']);
    expect(r.problems.map((p) => `${p.code}:${p.line}`)).toEqual(['unresolved-ref:5']);
    expect(r.problems[0]!.reason).toContain('TARGETARCH');
    expect(spanMismatches(text, r.pins)).toEqual([]);
  });
});

describe('FROM read by the one Dockerfile reader', () => {
  const read = (lines: string[]) => {
    const text = lines.join('\n');
    const r = collectDockerfile(text, acmeContext('Dockerfile'));
    expect(spanMismatches(text, r.pins)).toEqual([]);
    return { pins: r.pins.map((p) => `${p.ref.name}:${p.ref.tag} @${p.line}:${p.column}`), problems: r.problems.map((p) => `${p.code}:${p.line}`), reasons: r.problems.map((p) => p.reason) };
  };
  const cases: { name: string; lines: string[]; pins: string[]; problems: string[] }[] = [
    { name: 'flags and AS on a continued line', lines: ['FROM --platform=$BUILDPLATFORM \\', '    golang:1.22 \\', '    AS build'], pins: ['docker.io/library/golang:1.22 @2:5'], problems: [] },
    { name: 'a ref cut by a continuation cannot be located', lines: ['FROM golang:\\', '1.22'], pins: [], problems: ['unlocatable-ref:1'] },
    { name: 'an unclosed heredoc is reported (it swallows the rest of the file)', lines: ['FROM a:1', 'RUN <<EOF', 'FROM b:2'], pins: ['docker.io/library/a:1 @1:6'], problems: ['dockerfile-syntax:2'] },
    { name: 'an ARG whose value is scratch', lines: ['ARG BASE=scratch', 'FROM ${BASE}'], pins: [], problems: [] },
    { name: 'an ARG naming an earlier stage', lines: ['ARG S=Build', 'FROM a:1 AS build', 'FROM $S'], pins: ['docker.io/library/a:1 @2:6'], problems: [] },
    // BuildKit: FROM sees only the ARGs declared before the first FROM.
    { name: 'an ARG declared inside a stage does not reach a later FROM', lines: ['FROM a:1', 'ARG V=2', 'FROM b:${V}'], pins: ['docker.io/library/a:1 @1:6'], problems: ['unresolved-ref:3'] },
    { name: '${V-x} keeps an empty V; ${V:-x} does not', lines: ['ARG V=', 'FROM a:${V:-3}', 'FROM b:${V-3}'], pins: ['docker.io/library/a:3 @2:6'], problems: ['invalid-ref:3'] },
    { name: 'the escape directive and a BOM', lines: ['\uFEFF# escape=`', 'FROM `', '  c:4'], pins: ['docker.io/library/c:4 @3:3'], problems: [] },
    { name: 'CRLF line endings', lines: ['ARG T=5\r', 'FROM \\\r', '  d:${T}\r'], pins: ['docker.io/library/d:5 @3:3'], problems: [] },
    { name: 'an empty FROM', lines: ['FROM'], pins: [], problems: ['invalid-ref:1'] },
    // BuildKit reads the image as a shell word (kind's images/local-path-helper/Dockerfile quotes it)
    { name: 'a quoted image, located inside the quotes', lines: ['FROM "gcr.io/distroless/static-debian13"', "FROM 'e:6' AS six"], pins: ['gcr.io/distroless/static-debian13:undefined @1:7', 'docker.io/library/e:6 @2:7'], problems: [] },
    { name: 'double quotes substitute, single quotes do not', lines: ['ARG T=7', 'FROM "f:${T}"', "FROM 'g:${T}'"], pins: ['docker.io/library/f:7 @2:7'], problems: ['invalid-ref:3'] },
    { name: 'a quoted stage name is the stage', lines: ['FROM a:1 AS build', 'FROM "build"'], pins: ['docker.io/library/a:1 @1:6'], problems: [] },
    { name: 'a quote left open is not an image', lines: ['FROM "h:8'], pins: [], problems: ['invalid-ref:1'] },
    // BuildKit's platform ARGs: one stage per platform (docker/buildx), no image
    { name: 'a base naming stages through a platform ARG', lines: ['FROM a:1 AS bin-linux', 'FROM scratch AS bin-windows', 'FROM bin-$TARGETOS AS bin'], pins: ['docker.io/library/a:1 @1:6'], problems: [] },
    { name: 'a platform ARG naming no stage is still unresolved', lines: ['FROM a:1 AS bin-linux', 'FROM golang-${TARGETARCH}'], pins: ['docker.io/library/a:1 @1:6'], problems: ['unresolved-ref:2'] },
  ];
  it.each(cases)('$name', ({ lines, pins, problems }) => {
    const r = read(lines);
    expect(r.pins).toEqual(pins);
    expect(r.problems).toEqual(problems);
  });
});
