/**
 * Round-trip property of the reference grammar: for any string that parses,
 * parse → format → parse (full or familiar form) gives back the same value.
 * Inputs are built from the grammar's own pieces (hosts that do and do not look
 * like domains, Docker Hub's aliases, path components, tags, digests), so most
 * parse; plain random strings are mixed in too.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { familiarString, formatReference, parseReference, tryParseReference } from './reference.js';

const component = fc.stringMatching(/^[a-z0-9]{1,6}(?:(?:[._]|__|-{1,2})[a-z0-9]{1,6}){0,2}$/);
const host = fc.constantFrom('docker.io', 'index.docker.io', 'localhost', 'localhost:5000', 'ghcr.io', 'a.b', 'r.io:443', '[::1]:5000', 'Upper', 'library', 'docker.io:5000');
const long = fc.integer({ min: 240, max: 260 }).map((n) => 'a'.repeat(n));
const path = fc.array(fc.oneof(component, host.filter((h) => /^[a-z0-9.]+$/.test(h)), long), { minLength: 1, maxLength: 4 }).map((c) => c.join('/'));
const tag = fc.stringMatching(/^[\w][\w.-]{0,20}$/);
const digest = fc.constantFrom(`sha256:${'a'.repeat(64)}`, `sha512:${'b'.repeat(128)}`);
const structured = fc
  .tuple(fc.option(host, { nil: undefined }), path, fc.option(tag, { nil: undefined }), fc.option(digest, { nil: undefined }))
  .map(([h, p, t, d]) => `${h ? `${h}/` : ''}${p}${t ? `:${t}` : ''}${d ? `@${d}` : ''}`);
const input = fc.oneof(structured, fc.string({ maxLength: 40 }), fc.stringMatching(/^[a-z0-9./:@_-]{1,40}$/));

describe('reference round trip (property)', () => {
  it('parse → format → parse and parse → familiar → parse are the identity on parsed values', () => {
    fc.assert(
      fc.property(input, (s) => {
        const ref = tryParseReference(s);
        if (!ref) return;
        expect(parseReference(formatReference(ref))).toEqual(ref);
        expect(parseReference(familiarString(ref))).toEqual(ref);
      }),
      { numRuns: 3000 },
    );
  });
});
