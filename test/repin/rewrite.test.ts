/** How a stored ref text is split and rewritten: table-driven. */
import { describe, expect, it } from 'vitest';
import type { Pin } from '../../src/model/index.js';
import { rewritePin, splitRefText } from '../../src/repin/rewrite.js';
import type { RepinTarget } from '../../src/repin/types.js';
import { formatRepinText } from '../../src/report/repin-text.js';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;

describe('splitRefText', () => {
  it.each([
    ['ghcr.io/a/b:v1@' + D1, { name: 'ghcr.io/a/b', tag: 'v1', digest: D1 }],
    ['ghcr.io/a/b@' + D1, { name: 'ghcr.io/a/b', tag: undefined, digest: D1 }],
    ['ghcr.io/a/b:v1', { name: 'ghcr.io/a/b', tag: 'v1', digest: undefined }],
    ['localhost:5000/a:v1', { name: 'localhost:5000/a', tag: 'v1', digest: undefined }],
    ['localhost:5000/a', { name: 'localhost:5000/a', tag: undefined, digest: undefined }],
    ['nginx', { name: 'nginx', tag: undefined, digest: undefined }],
  ])('%s', (text, want) => {
    expect(splitRefText(text)).toEqual(want);
  });
});

function pin(text: string, spans: Pin['spans'], ref: Partial<Pin['ref']> = {}): Pin {
  return {
    file: 'f', line: 1, column: 1, shape: 'yaml-string', spans, raw: text, form: 'tag+digest', firstParty: true,
    ref: { domain: 'ghcr.io', path: 'a/b', name: 'ghcr.io/a/b', ...ref },
  };
}

describe('rewritePin', () => {
  const target: RepinTarget = { repository: 'ghcr.io/a/b', tag: 'v2', digest: D2, resolvedBy: 'given' };
  const cases: { name: string; text: string; field: 'ref' | 'digest'; want: string }[] = [
    { name: 'tag+digest', text: `ghcr.io/a/b:v1@${D1}`, field: 'ref', want: `ghcr.io/a/b:v2@${D2}` },
    { name: 'digest only stays digest only', text: `ghcr.io/a/b@${D1}`, field: 'ref', want: `ghcr.io/a/b@${D2}` },
    { name: 'tag only gets the new tag', text: 'ghcr.io/a/b:v1', field: 'ref', want: 'ghcr.io/a/b:v2' },
    { name: 'latest@digest gets the target tag', text: `ghcr.io/a/b:latest@${D1}`, field: 'ref', want: `ghcr.io/a/b:v2@${D2}` },
    { name: 'OCI pair keeps digest= prefix', text: `digest=${D1}`, field: 'digest', want: `digest=${D2}` },
  ];
  it.each(cases)('$name', ({ text, field, want }) => {
    const r = rewritePin(text, pin(text, [{ field, start: 0, end: text.length }]), target);
    expect(typeof r).toBe('object');
    if (typeof r === 'string') return;
    expect(r.edits).toEqual([{ start: 0, end: text.length, text: want }]);
  });

  it('refuses a tagged pin when the target has no tag', () => {
    const text = `ghcr.io/a/b:v1@${D1}`;
    const r = rewritePin(text, pin(text, [{ field: 'ref', start: 0, end: text.length }]), { ...target, tag: undefined });
    expect(r).toMatch(/target names no tag/);
  });

  it('refuses a lockstep rewrite of a split map naming another repository', () => {
    const text = 'ghcr.io other/x v1';
    const p = pin(text, [{ field: 'registry', start: 0, end: 7 }, { field: 'repository', start: 8, end: 15 }, { field: 'tag', start: 16, end: 18 }], { name: 'ghcr.io/other/x', path: 'other/x' });
    expect(rewritePin(text, p, target, `ghcr.io/a/b:v2@${D2}`)).toMatch(/needs a single-string pin/);
  });
});

describe('formatRepinText', () => {
  it('says when there is nothing to change', () => {
    const text = formatRepinText({
      repository: 'ghcr.io/a/b', target: { repository: 'ghcr.io/a/b', tag: 'v2', digest: D2, resolvedBy: 'given' },
      oldDigests: [], changes: [], files: [], problems: [], leftovers: [], dryRun: false, written: false,
    });
    expect(text).toContain(`Nothing to change: every pin of ghcr.io/a/b already names ${D2}.`);
  });
});
