/**
 * Table-driven tests for the reference grammar, ported from distribution/reference
 * (reference_test.go, normalize_test.go, regexp_test.go) plus pinwatch's own cases.
 */
import { describe, expect, it } from 'vitest';
import {
  familiarName,
  familiarString,
  formatReference,
  hasExplicitDomain,
  isValidDomain,
  isValidTag,
  parseReference,
  InvalidReferenceError,
  tryParseReference,
  validateDigest,
  type InvalidReferenceReason,
} from './reference.js';
import { PinwatchError } from '../errors.js';

const h64 = 'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff';
const h128 = h64 + h64;
const d64 = `sha256:${h64}`;

interface Ok {
  input: string;
  domain: string;
  path: string;
  tag?: string;
  digest?: string;
}

const valid: Ok[] = [
  // reference_test.go
  { input: 'test_com', domain: 'docker.io', path: 'library/test_com' },
  { input: 'test.com:tag', domain: 'docker.io', path: 'library/test.com', tag: 'tag' },
  { input: 'test.com:5000', domain: 'docker.io', path: 'library/test.com', tag: '5000' },
  { input: 'test.com/repo:tag', domain: 'test.com', path: 'repo', tag: 'tag' },
  { input: 'test:5000/repo', domain: 'test:5000', path: 'repo' },
  { input: 'test:5000/repo:tag', domain: 'test:5000', path: 'repo', tag: 'tag' },
  { input: `test:5000/repo@${d64}`, domain: 'test:5000', path: 'repo', digest: d64 },
  { input: `test:5000/repo:tag@${d64}`, domain: 'test:5000', path: 'repo', tag: 'tag', digest: d64 },
  { input: 'lowercase:Uppercase', domain: 'docker.io', path: 'library/lowercase', tag: 'Uppercase' },
  { input: 'sub-dom1.foo.com/bar/baz/quux', domain: 'sub-dom1.foo.com', path: 'bar/baz/quux' },
  { input: 'sub-dom1.foo.com/bar/baz/quux:some-long-tag', domain: 'sub-dom1.foo.com', path: 'bar/baz/quux', tag: 'some-long-tag' },
  { input: 'b.gcr.io/test.example.com/my-app:test.example.com', domain: 'b.gcr.io', path: 'test.example.com/my-app', tag: 'test.example.com' },
  { input: 'xn--n3h.com/myimage:xn--n3h.com', domain: 'xn--n3h.com', path: 'myimage', tag: 'xn--n3h.com' },
  { input: `xn--7o8h.com/myimage:xn--7o8h.com@sha512:${h128}`, domain: 'xn--7o8h.com', path: 'myimage', tag: 'xn--7o8h.com', digest: `sha512:${h128}` },
  { input: 'foo_bar.com:8080', domain: 'docker.io', path: 'library/foo_bar.com', tag: '8080' },
  { input: 'foo/foo_bar.com:8080', domain: 'docker.io', path: 'foo/foo_bar.com', tag: '8080' },
  { input: '[2001:db8::1]:5000/repo', domain: '[2001:db8::1]:5000', path: 'repo' },
  { input: '[2001:db8::1]/repo', domain: '[2001:db8::1]', path: 'repo' },
  { input: '[2001:db8:1:2:3:4:5:6]/repo:tag', domain: '[2001:db8:1:2:3:4:5:6]', path: 'repo', tag: 'tag' },
  { input: `[2001:db8::1]:5000/repo:tag@${d64}`, domain: '[2001:db8::1]:5000', path: 'repo', tag: 'tag', digest: d64 },
  { input: `${'a/'.repeat(127)}a:tag-puts-this-over-max`, domain: 'docker.io', path: `${'a/'.repeat(127)}a`, tag: 'tag-puts-this-over-max' },
  // the brief's cases
  { input: 'reg.acme.test:5000/platform/billing', domain: 'reg.acme.test:5000', path: 'platform/billing' },
  { input: 'localhost/x', domain: 'localhost', path: 'x' },
  { input: 'localhost:5000/x', domain: 'localhost:5000', path: 'x' },
  { input: '[::1]:5000/x', domain: '[::1]:5000', path: 'x' },
  { input: '[2001:db8::1]/x', domain: '[2001:db8::1]', path: 'x' },
  { input: 'ghcr.io/o/a__b', domain: 'ghcr.io', path: 'o/a__b' },
  { input: 'ghcr.io/o/a-b', domain: 'ghcr.io', path: 'o/a-b' },
  { input: 'ghcr.io/o/a---b', domain: 'ghcr.io', path: 'o/a---b' },
  { input: 'ghcr.io/o/a.b', domain: 'ghcr.io', path: 'o/a.b' },
  { input: `r.io/x:${'t'.repeat(128)}`, domain: 'r.io', path: 'x', tag: 't'.repeat(128) },
  { input: `ghcr.io/acme/app:v1.2.3@${d64}`, domain: 'ghcr.io', path: 'acme/app', tag: 'v1.2.3', digest: d64 },
  { input: `ghcr.io/acme/app@sha512:${h128}`, domain: 'ghcr.io', path: 'acme/app', digest: `sha512:${h128}` },
  // normalize_test.go: docker.io and library/ normalisation
  { input: 'nginx', domain: 'docker.io', path: 'library/nginx' },
  { input: 'library/ubuntu', domain: 'docker.io', path: 'library/ubuntu' },
  { input: 'nonlibrary/ubuntu', domain: 'docker.io', path: 'nonlibrary/ubuntu' },
  { input: 'other/library', domain: 'docker.io', path: 'other/library' },
  { input: 'docker.io/ubuntu', domain: 'docker.io', path: 'library/ubuntu' },
  { input: 'docker.io/library/ubuntu', domain: 'docker.io', path: 'library/ubuntu' },
  { input: 'index.docker.io/nginx', domain: 'docker.io', path: 'library/nginx' },
  { input: 'index.docker.io/library/ubuntu', domain: 'docker.io', path: 'library/ubuntu' },
  { input: 'docker.io/user/app', domain: 'docker.io', path: 'user/app' },
  { input: '127.0.0.1:8000/private/moonbase', domain: '127.0.0.1:8000', path: 'private/moonbase' },
  { input: 'example.com:8000/privatebase', domain: 'example.com:8000', path: 'privatebase' },
  { input: 'localhost:8000/private/moonbase', domain: 'localhost:8000', path: 'private/moonbase' },
  { input: '192.168.0.1', domain: 'docker.io', path: 'library/192.168.0.1' },
  { input: '192.168.0.1:80', domain: 'docker.io', path: 'library/192.168.0.1', tag: '80' },
  { input: '192.168.0.1:8/debian', domain: '192.168.0.1:8', path: 'debian' },
  { input: '[fc00::1]:5000/docker/docker', domain: '[fc00::1]:5000', path: 'docker/docker' },
  { input: '[fc00:1:2:3:4:5:6:7]:5000/library/debian', domain: '[fc00:1:2:3:4:5:6:7]:5000', path: 'library/debian' },
  // reference_test.go length rows: the domain does not count, the path may be 255
  { input: `example.com/${'a'.repeat(255)}:tag`, domain: 'example.com', path: 'a'.repeat(255), tag: 'tag' },
  { input: `r.io/${'a'.repeat(251)}`, domain: 'r.io', path: 'a'.repeat(251) },
  { input: `${'a/'.repeat(127)}a:tag-puts-this-over-max`, domain: 'docker.io', path: `${'a/'.repeat(127)}a`, tag: 'tag-puts-this-over-max' },
  { input: 'a'.repeat(247), domain: 'docker.io', path: `library/${'a'.repeat(247)}` },
  // a Docker Hub path whose first component looks like a host stays a path
  { input: 'index.docker.io/docker.io/library/nginx', domain: 'docker.io', path: 'docker.io/library/nginx' },
  { input: 'docker.io/localhost/x', domain: 'docker.io', path: 'localhost/x' },
  { input: 'thisisthesongthatneverendsitgoesonandonandonthisisthesongthatnev', domain: 'docker.io', path: 'library/thisisthesongthatneverendsitgoesonandonandonthisisthesongthatnev' },
];

interface Bad {
  input: string;
  reason: InvalidReferenceReason;
}

const invalid: Bad[] = [
  { input: '', reason: 'ref-empty' },
  { input: ':justtag', reason: 'ref-invalid-format' },
  { input: `@${d64}`, reason: 'ref-invalid-format' },
  { input: `validname@invaliddigest:${h64}`, reason: 'ref-unsupported-digest' },
  { input: 'Uppercase:tag', reason: 'ref-uppercase' },
  { input: 'test:5000/Uppercase/lowercase:tag', reason: 'ref-uppercase' },
  { input: 'docker/Docker', reason: 'ref-uppercase' },
  { input: 'ghcr.io/Acme/app:v1', reason: 'ref-uppercase' },
  { input: `${'a/'.repeat(128)}a:tag`, reason: 'ref-name-too-long' },
  // reference_test.go: the 255 limit is on the path, the domain not counted ("Exclude domain from name length check")
  { input: `example.com/${'a'.repeat(256)}`, reason: 'ref-name-too-long' },
  { input: `domain/${'a'.repeat(256)}:tag`, reason: 'ref-name-too-long' },
  // normalised first (ParseNormalizedNamed): a familiar name's `library/` counts
  { input: 'a'.repeat(248), reason: 'ref-name-too-long' },
  { input: 'aa/asdf$$^/aa', reason: 'ref-invalid-format' },
  { input: '[2001:db8::1]', reason: 'ref-invalid-format' },
  { input: '[2001:db8::1]:tag', reason: 'ref-invalid-format' },
  { input: '[fe80::1%eth0]:5000/repo', reason: 'ref-invalid-format' },
  { input: '[2001:db8:3:4::192.0.2.33]:5000/debian', reason: 'ref-invalid-format' },
  { input: 'fc00::1:5000/debian', reason: 'ref-invalid-format' },
  { input: 'https://github.com/docker/docker', reason: 'ref-invalid-format' },
  { input: '-docker', reason: 'ref-invalid-format' },
  { input: '-docker.io/docker/docker', reason: 'ref-invalid-format' },
  { input: 'docker///docker', reason: 'ref-invalid-format' },
  { input: 'ghcr.io/o/a_-b', reason: 'ref-invalid-format' },
  { input: 'ghcr.io/o/a..b', reason: 'ref-invalid-format' },
  { input: 'ghcr.io/o/-a', reason: 'ref-invalid-format' },
  { input: '1a3f5e7d9c1b3a5f7e9d1c3b5a7f9e1d3c5b7a9f1e3d5d7c9b1a3f5e7d9c1b3a', reason: 'ref-invalid-format' },
  { input: `r.io/x:${'t'.repeat(129)}`, reason: 'ref-invalid-tag' },
  { input: 'r.io/x:.v1', reason: 'ref-invalid-tag' },
  { input: `r.io/x@sha256:${h64}f`, reason: 'ref-invalid-digest' },
  { input: `r.io/x@sha256:${h64.slice(1)}`, reason: 'ref-invalid-digest' },
  { input: `r.io/x:v1@sha256:${h64.slice(1)}`, reason: 'ref-invalid-digest' },
  { input: `r.io/x@sha512:${h64}`, reason: 'ref-invalid-digest' },
  { input: `r.io/x@sha256:${h64.toUpperCase()}`, reason: 'ref-invalid-digest' },
  { input: `r.io/x@md5:${h64}`, reason: 'ref-unsupported-digest' },
];

describe('parseReference accepts', () => {
  it.each(valid)('$input', ({ input, domain, path, tag, digest }) => {
    const ref = parseReference(input);
    expect(ref).toEqual({ domain, path, name: `${domain}/${path}`, ...(tag !== undefined ? { tag } : {}), ...(digest !== undefined ? { digest } : {}) });
  });
});

describe('parseReference rejects', () => {
  it.each(invalid)('$input → $reason', ({ input, reason }) => {
    let caught: unknown;
    try {
      parseReference(input);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(InvalidReferenceError);
    expect(caught).toBeInstanceOf(PinwatchError);
    const err = caught as InvalidReferenceError;
    expect(err.code).toBe('invalid-ref');
    expect(err.reason).toBe(reason);
    expect(err.input).toBe(input);
    expect(err.message).toContain(JSON.stringify(input));
    expect(tryParseReference(input)).toBeUndefined();
  });
});

describe('digest messages', () => {
  it('quotes the input and says how many hex characters were found', () => {
    const input = `ghcr.io/acme/app:v1@sha256:${h64}a`;
    expect(() => parseReference(input)).toThrow(/64 lowercase hex characters.*found 65.*saw "ghcr\.io\/acme\/app:v1@sha256:f+a"/);
    expect(() => parseReference(`ghcr.io/acme/app@sha256:${h64.slice(1)}`)).toThrow(/found 63/);
  });
  it('validateDigest accepts sha256/sha384/sha512 at their lengths only', () => {
    expect(() => validateDigest(d64)).not.toThrow();
    expect(() => validateDigest(`sha384:${'a'.repeat(96)}`)).not.toThrow();
    expect(() => validateDigest(`sha512:${h128}`)).not.toThrow();
    expect(() => validateDigest(`sha512:${h64}`)).toThrow(InvalidReferenceError);
    expect(() => validateDigest('sha256:abc')).toThrow(InvalidReferenceError);
  });
});

describe('regexp pieces (regexp_test.go)', () => {
  const domains: [string, boolean][] = [
    ['test.com', true],
    ['test.com:10304', true],
    ['test.com:http', false],
    ['localhost', true],
    ['localhost:8080', true],
    ['a', true],
    ['a.b', true],
    ['ab.cd.com', true],
    ['a-b.com', true],
    ['-ab.com', false],
    ['ab-.com', false],
    ['ab.c-om', true],
    ['ab.-com', false],
    ['ab.com-', false],
    ['0101.com', true],
    ['001a.com', true],
    ['b.gbc.io:443', true],
    ['xn--n3h.com', true],
    ['Asdf.com', true],
    ['192.168.1.1:75050', true],
    ['[fd00:1:2::3]:75050', true],
    ['[fd00:1:2::3]', true],
    ['[fd00:1:2::3%eth0]:75050', false],
    ['fd00:1:2::3', false],
  ];
  it.each(domains)('domain %s → %s', (domain, ok) => {
    expect(isValidDomain(domain)).toBe(ok);
  });
  const tags: [string, boolean][] = [
    ['v1', true],
    ['latest', true],
    ['_x', true],
    ['V1.2-rc_3', true],
    ['t'.repeat(128), true],
    ['t'.repeat(129), false],
    ['.v1', false],
    ['-v1', false],
    ['v1+meta', false],
    ['', false],
  ];
  it.each(tags)('tag %s → %s', (tag, ok) => {
    expect(isValidTag(tag)).toBe(ok);
  });
});

describe('hasExplicitDomain', () => {
  const cases: [string, boolean][] = [
    ['ghcr.io/o/a', true],
    ['localhost/x', true],
    ['reg:5000/x', true],
    ['[::1]:5000/x', true],
    ['nginx', false],
    ['user/app', false],
    ['v1.2', false],
    ['true', false],
  ];
  it.each(cases)('%s → %s', (input, want) => {
    expect(hasExplicitDomain(input)).toBe(want);
  });
});

describe('formatting', () => {
  const roundTrips: [string, string, string][] = [
    // input, full form, familiar form
    ['nginx', 'docker.io/library/nginx', 'nginx'],
    ['nginx:1.25', 'docker.io/library/nginx:1.25', 'nginx:1.25'],
    ['index.docker.io/nginx', 'docker.io/library/nginx', 'nginx'],
    ['docker.io/library/nginx', 'docker.io/library/nginx', 'nginx'],
    ['docker.io/library/foo/bar', 'docker.io/library/foo/bar', 'library/foo/bar'],
    ['docker.io/user/app', 'docker.io/user/app', 'user/app'],
    ['user/app:v1', 'docker.io/user/app:v1', 'user/app:v1'],
    [`ghcr.io/o/a:v1@${d64}`, `ghcr.io/o/a:v1@${d64}`, `ghcr.io/o/a:v1@${d64}`],
    [`nginx@${d64}`, `docker.io/library/nginx@${d64}`, `nginx@${d64}`],
    ['localhost:5000/x:t', 'localhost:5000/x:t', 'localhost:5000/x:t'],
    ['[::1]:5000/x', '[::1]:5000/x', '[::1]:5000/x'],
    // docker would print these familiar forms without docker.io/, which parse as other references
    ['index.docker.io/docker.io/library/nginx', 'docker.io/docker.io/library/nginx', 'docker.io/docker.io/library/nginx'],
    ['docker.io/index.docker.io/nginx:1', 'docker.io/index.docker.io/nginx:1', 'docker.io/index.docker.io/nginx:1'],
    ['docker.io/localhost/x', 'docker.io/localhost/x', 'docker.io/localhost/x'],
    ['docker.io/library/docker.io', 'docker.io/library/docker.io', 'docker.io'],
  ];
  it.each(roundTrips)('%s → %s / %s', (input, full, familiar) => {
    const ref = parseReference(input);
    expect(formatReference(ref)).toBe(full);
    expect(familiarString(ref)).toBe(familiar);
    // Both forms parse back to the same reference.
    expect(parseReference(full)).toEqual(ref);
    expect(parseReference(familiar)).toEqual(ref);
  });
  it('familiarName keeps non-docker.io domains', () => {
    expect(familiarName({ domain: 'quay.io', path: 'library/x' })).toBe('quay.io/library/x');
  });
});
