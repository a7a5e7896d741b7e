import { describe, expect, it } from 'vitest';
import { spanMismatches } from '../common/span-check.js';
import { acmeContext, fixtureText, spanTexts } from '../test-support.js';
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
