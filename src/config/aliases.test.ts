import { describe, expect, it } from 'vitest';
import { aliasesProblem, canonicalRepository, firstPartyPrefixes } from './aliases.js';

const ALIASES = {
  'ci.acme.test/builds/': 'ghcr.io/acme/',
  'ci.acme.test/builds/special/': 'ghcr.io/acme/platform/',
  'gcr.io/k8s-staging-kind': 'docker.io/kindest',
};

describe('canonicalRepository', () => {
  it.each([
    ['ci.acme.test/builds/osc', 'ghcr.io/acme/osc'],
    ['ci.acme.test/builds/a/b', 'ghcr.io/acme/a/b'],
    // the longest alias prefix wins
    ['ci.acme.test/builds/special/x', 'ghcr.io/acme/platform/x'],
    // a prefix without a trailing slash still matches whole path components
    ['gcr.io/k8s-staging-kind/node', 'docker.io/kindest/node'],
    ['gcr.io/k8s-staging-kindx/node', 'gcr.io/k8s-staging-kindx/node'],
    ['ci.acme.test/buildsx/osc', 'ci.acme.test/buildsx/osc'],
    // not under any alias: itself
    ['ghcr.io/acme/osc', 'ghcr.io/acme/osc'],
  ])('%s → %s', (repo, canonical) => {
    expect(canonicalRepository(repo, ALIASES)).toBe(canonical);
  });
});

describe('aliasesProblem', () => {
  it.each([
    [{ 'ci.acme.test/x/': 'ghcr.io/acme/' }, undefined],
    [{ 'acme/': 'ghcr.io/acme/' }, /does not start with a registry host/],
    [{ 'ci.acme.test/x/': 'https://ghcr.io/acme/' }, /has a URL scheme/],
    [{ 'ghcr.io/acme/': 'ghcr.io/acme' }, /maps to itself/],
    [{ 'a.test/x/': 'b.test/y/', 'b.test/y/': 'ghcr.io/acme/' }, /which is itself an alias; map "a.test\/x\/" to the canonical prefix directly/],
  ])('%j → %s', (aliases, problem) => {
    const p = aliasesProblem(aliases);
    if (problem === undefined) expect(p).toBeUndefined();
    else expect(p).toMatch(problem);
  });
});

describe('firstPartyPrefixes', () => {
  it('adds the alias prefixes whose canonical prefix is first-party, and only those', () => {
    expect(firstPartyPrefixes({ firstParty: ['ghcr.io/acme/'], aliases: ALIASES })).toEqual(['ghcr.io/acme/', 'ci.acme.test/builds/', 'ci.acme.test/builds/special/']);
    // ci.acme.test/builds/platform/x is ghcr.io/acme/platform/x through the shorter alias
    expect(firstPartyPrefixes({ firstParty: ['ghcr.io/acme/platform/'], aliases: ALIASES })).toEqual(['ghcr.io/acme/platform/', 'ci.acme.test/builds/platform/', 'ci.acme.test/builds/special/']);
  });

  it("a first-party repository inside an alias's canonical prefix is first-party under the alias too (trivy-operator pinned from mirror.gcr.io)", () => {
    const aliases = { 'mirror.gcr.io/aquasec/': 'docker.io/aquasec/' };
    expect(firstPartyPrefixes({ firstParty: ['docker.io/aquasec/trivy-operator'], aliases })).toEqual(['docker.io/aquasec/trivy-operator', 'mirror.gcr.io/aquasec/trivy-operator']);
    expect(canonicalRepository('mirror.gcr.io/aquasec/trivy-operator', aliases)).toBe('docker.io/aquasec/trivy-operator');
    // another repository of the alias prefix is not ours
    expect(firstPartyPrefixes({ firstParty: ['docker.io/aquasec/trivy-operator'], aliases }).some((p) => 'mirror.gcr.io/aquasec/trivy'.startsWith(p.endsWith('/') ? p : `${p}/`) || p === 'mirror.gcr.io/aquasec/trivy')).toBe(false);
  });
});
