import { describe, expect, it } from 'vitest';
import { sedLineFilter } from './sed-pattern.js';

/** Does the script edit the line? undefined: the script could not be read (the whole file counts). */
const edits = (script: string, extended: boolean, line: string) => sedLineFilter(script, extended)?.every((r) => r.test(line));

describe('sedLineFilter', () => {
  it.each([
    // script, -E, line, edited
    ['s|image: ghcr\\.io/.+/kamaji-provider:[^[:space:]]+|image: $IMG|', true, '        image: ghcr.io/acme/x/kamaji-provider:v1@sha256:ab', true],
    ['s|image: ghcr\\.io/.+/kamaji-provider:[^[:space:]]+|image: $IMG|', true, '      image: registry.k8s.io/kas-network-proxy/proxy-agent:v0.31', false],
    ['s|image: .*multus-cni.*|image: x|g', false, '          image: ghcr.io/acme/multus-cni:v1', true],
    ['s|image: .*multus-cni.*|image: x|g', false, '          image: ghcr.io/acme/other:v1', false],
    ['/ARG VERSION/ s|=.*|=x|g', false, 'ARG VERSION=1', true],
    ['/ARG VERSION/ s|=.*|=x|g', false, 'ARG OTHER=2', false],
    ['s/^image: \\(.*\\)$/image: x/', false, 'image: a', true], // BRE group
    ['s/^image: \\(.*\\)$/image: x/', false, '  image: a', false],
    ['s/a+b/x/', false, 'a+b', true], // BRE: + is literal
    ['s/a+b/x/', false, 'aab', false],
    ['s/a+b/x/', true, 'aab', true], // ERE: + repeats
    ['s|a\\|b|x|', false, 'a|b', true], // an escaped delimiter is a literal
    ['s|a\\|b|x|', false, 'a', false],
    ['s/[[:digit:]]\\{2\\}/x/', false, 'v12', true], // GNU BRE interval
    ['s/[[:digit:]]\\{2\\}/x/', false, 'v1', false],
  ] as const)('%s (-E %s) on %j → %s', (script, extended, line, want) => {
    expect(edits(script, extended, line)).toBe(want);
  });

  it.each([
    ['no s command', 'p'],
    ['back-references', 's/\\(a\\)\\1/x/'],
    ['an unknown class', 's/[[:foo:]]/x/'],
    ['an unterminated pattern', 's|image: .*'],
  ])('gives up on %s', (_label, script) => {
    expect(sedLineFilter(script, false)).toBeUndefined();
  });
});
