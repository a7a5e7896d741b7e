/**
 * A file that is not UTF-8 is listed under `skipped` (not-utf8, line of the first
 * bad byte, scraped: true) and still read: decoded as Latin-1 and scraped, so its
 * refs are pins with byte-exact spans. Every re-reader agrees: repin writes it
 * back in Latin-1 byte for byte, overlay compares it, lint reads the same text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spanMismatches } from '../support/span-check.js';
import { defaultConfig } from '../../src/config/defaults.js';
import type { Config } from '../../src/config/types.js';
import { fileTextReader, lintRepo } from '../../src/lint/index.js';
import { runOverlay } from '../../src/overlay/repo.js';
import { repin } from '../../src/repin/index.js';
import { encodeText, readTextFile, scanRepo } from '../../src/scan/index.js';
import { SHA, treesRemovedAfterEach } from '../support/tree.js';

const Z = 'ghcr.io/acme/z';
const latin1 = (text: string) => Buffer.from(text, 'latin1');
/** A values file with `é` (0xe9) in a comment on line 2 and `ï` in a value: not UTF-8. */
const VALUES = (ref: string) => latin1(`app:\n  # café, stamped by make\n  image: ${ref}\n  note: "naïve"  # also ghcr.io/acme/y:v2\n`);
const OLD_REF = `${Z}:v1@${SHA('a')}`;
const NEW_REF = `${Z}:v2@${SHA('c')}`;

const tree = treesRemovedAfterEach();

const config = (): Config => ({ ...defaultConfig(), firstParty: ['ghcr.io/acme/'] });

describe('a Latin-1 values file', () => {
  it('is listed as not-utf8 with the line of the first bad byte, and its refs are scraped pins with byte-exact spans', async () => {
    const bytes = VALUES(OLD_REF);
    const t = tree({ 'apps/z/values.yaml': bytes });
    const scan = await scanRepo(t.dir, config());
    expect(scan.skipped).toEqual([
      { file: 'apps/z/values.yaml', code: 'not-utf8', line: 2, scraped: true, reason: expect.stringMatching(/^not valid UTF-8 \(byte 0xe9 at offset 12\); read as Latin-1/) },
    ]);
    expect(scan.filesScanned).toBe(1);
    expect(scan.pins.map((p) => `${p.raw}@${p.line}:${p.column} scraped=${p.scraped}`)).toEqual([`${OLD_REF}@3:10 scraped=true`, 'ghcr.io/acme/y:v2@4:25 scraped=true']);
    for (const pin of scan.pins) {
      const [span] = pin.spans;
      // offsets are byte offsets into the file on disk
      expect(span!.start).toBe(bytes.indexOf(pin.raw));
      expect(bytes.subarray(span!.start, span!.end).toString('latin1')).toBe(pin.raw);
    }
    const read = readTextFile(join(t.dir, 'apps/z/values.yaml'), 'apps/z/values.yaml');
    expect('text' in read && spanMismatches(read.text, scan.pins)).toEqual([]);
  });

  it('a binary file (NUL bytes) is still not read', async () => {
    const t = tree({ 'values.yaml': Buffer.concat([latin1(`image: ${OLD_REF}\n# \xe9\n`), Buffer.from([0])]) });
    const scan = await scanRepo(t.dir, config());
    expect(scan.pins).toEqual([]);
    expect(scan.skipped).toMatchObject([{ file: 'values.yaml', code: 'binary-file', line: 3 }]);
    expect(scan.skipped[0]!.scraped).toBeUndefined();
  });

  it('repin moves its pin and writes the file back in Latin-1, byte for byte', async () => {
    const t = tree({ 'apps/z/values.yaml': VALUES(OLD_REF) });
    const r = await repin({ root: t.dir, config: config(), image: Z, to: NEW_REF });
    expect(r.problems.filter((p) => p.blocking)).toEqual([]);
    expect(r.problems.map((p) => p.code)).not.toContain('not-read:not-utf8');
    expect(r.changes.map((c) => [c.file, c.line, c.to])).toEqual([['apps/z/values.yaml', 3, NEW_REF]]);
    expect(r.written).toBe(true);
    expect(readFileSync(join(t.dir, 'apps/z/values.yaml')).equals(VALUES(NEW_REF))).toBe(true);
    expect(r.leftovers).toEqual([]);
  });

  it('encodeText refuses a character Latin-1 cannot store instead of changing the encoding', () => {
    const t = tree({ 'v.yaml': VALUES(OLD_REF) });
    const read = readTextFile(join(t.dir, 'v.yaml'), 'v.yaml');
    if (!('text' in read)) throw new Error('not read');
    expect(encodeText(read.text, read, 'v.yaml').equals(VALUES(OLD_REF))).toBe(true);
    expect(() => encodeText(`${read.text}# €\n`, read, 'v.yaml')).toThrow(/v.yaml is a Latin-1 file and the new text has "€" at line 5, which Latin-1 cannot store; not writing/);
    expect(encodeText('é', { text: 'é' }, 'u.yaml')).toEqual(Buffer.from([0xc3, 0xa9]));
  });

  it('overlay compares two Latin-1 copies line by line and writes the artifact bytes', () => {
    const root = tree({ 'p/values.yaml': VALUES(OLD_REF), 'q/values.yaml': VALUES(OLD_REF), 'u/values.yaml': `app:\n  # café\n  image: ${OLD_REF}\n` });
    const from = tree({ 'p/values.yaml': VALUES(NEW_REF), 'q/values.yaml': VALUES(OLD_REF), 'u/values.yaml': latin1(`app:\n  # café\n  image: ${NEW_REF}\n`) });
    const report = runOverlay({ root: root.dir, from: from.dir, config: config(), skip: { built: [], touched: [], owned: [] }, dryRun: false, ignoreComments: false });
    const byFile = Object.fromEntries(report.files.map((f) => [f.file, f]));
    expect(byFile['p/values.yaml']).toMatchObject({ status: 'overlaid', method: 'line-fallback', reason: expect.stringMatching(/did not parse \(not valid UTF-8/) });
    expect(readFileSync(join(root.dir, 'p/values.yaml')).equals(VALUES(NEW_REF))).toBe(true);
    expect(byFile['q/values.yaml']).toMatchObject({ status: 'same' });
    // same text, different bytes: UTF-8 in the checkout, Latin-1 in the artifact
    expect(byFile['u/values.yaml']).toMatchObject({ status: 'drift', reason: expect.stringMatching(/^the checkout copy is UTF-8 and the artifact copy is not \(not valid UTF-8 \(byte 0xe9/) });
    expect(readFileSync(join(root.dir, 'u/values.yaml'), 'utf8')).toBe(`app:\n  # café\n  image: ${OLD_REF}\n`);
  });

  it('lint reports it as read by the text scrape only, and reads the same text for directives', async () => {
    const t = tree({ 'apps/z/values.yaml': VALUES(OLD_REF) });
    const result = await lintRepo(t.dir, config(), { baseline: false });
    const unparsed = result.findings.filter((f) => f.rule === 'unparsed-file');
    expect(unparsed).toMatchObject([{ file: 'apps/z/values.yaml', line: 2, evidence: { code: 'not-utf8', scraped: true } }]);
    expect(unparsed[0]!.message).toMatch(/found by a text scrape only/);
    expect(fileTextReader(t.dir)('apps/z/values.yaml')).toBe(VALUES(OLD_REF).toString('latin1'));
  });
});
