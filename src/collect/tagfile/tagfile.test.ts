import { describe, expect, it } from 'vitest';
import { spanMismatches } from '../../../test/support/span-check.js';
import { acmeContext, fixtureText, spanTexts } from '../../../test/support/collect.js';
import { collectTagFile } from './index.js';

const D = 'sha256:0a92e861ead179dd6b46f475fd8878d44b3cfa40ce4d7a8ff92f790d54250d25';

function collect(name: string) {
  const text = fixtureText(import.meta.url, name);
  return { text, result: collectTagFile(text, acmeContext(`images/${name}`)) };
}

describe('tag files', () => {
  it('reads one ref, span without the newline', () => {
    const { text, result } = collect('app.tag');
    expect(result.problems).toEqual([]);
    expect(result.pins).toHaveLength(1);
    const pin = result.pins[0]!;
    expect(pin).toMatchObject({ file: 'images/app.tag', line: 1, column: 1, shape: 'tag-file', form: 'tag+digest', firstParty: true, raw: `ghcr.io/acme/app:v1.6.0@${D}` });
    expect(spanTexts(text, pin)).toEqual([`ref=ghcr.io/acme/app:v1.6.0@${D}`]);
  });
  it('trims surrounding whitespace and normalises familiar names', () => {
    const { text, result } = collect('padded.tag');
    const pin = result.pins[0]!;
    expect(pin.column).toBe(3);
    expect(pin.ref.name).toBe('docker.io/library/busybox');
    expect(pin.firstParty).toBe(false);
    expect(spanMismatches(text, result.pins)).toEqual([]);
  });
  it('a BOM is not part of the ref', () => {
    const text = `\uFEFFghcr.io/acme/x:v1\r\n`;
    const result = collectTagFile(text, acmeContext('x.tag'));
    expect(spanTexts(text, result.pins[0]!)).toEqual(['ref=ghcr.io/acme/x:v1']);
  });
  it.each([
    ['empty.tag', 'empty-tag-file', /empty/],
    ['bad-digest.tag', 'invalid-ref', /found 65; saw "ghcr\.io\/acme\/app:v1@sha256:/],
    ['two-refs.tag', 'invalid-ref', /exactly one image reference/],
  ])('%s → Problem %s', (name, code, reason) => {
    const { result } = collect(name);
    expect(result.pins).toEqual([]);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ code, file: `images/${name}`, line: 1 });
    expect(result.problems[0]!.reason).toMatch(reason);
  });
});
