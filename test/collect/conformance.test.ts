/**
 * One conformance test over every collector (renovate's manager index.spec.ts
 * idea): it iterates the registry `COLLECTORS`, so a new file kind is covered
 * as soon as it is registered. Each collector runs over every fixture under
 * src/collect/** /fixtures (its own kind must have at least one) and over the
 * cozystack tree, and the contract every reader of pins relies on must hold:
 * spans slice back to the stored text, line/column are the first span's, no
 * two pins claim the same bytes, and every pin and problem names its file and line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COLLECTORS, type CollectResult, type FileKind } from '../../src/collect/index.js';
import { formOf } from '../../src/model/index.js';
import { fileKind } from '../../src/scan/kind.js';
import { acmeContext } from '../support/collect.js';
import { cozystackFiles, requireCozystackFixture } from '../support/cozystack.js';
import { spanMismatches } from '../support/span-check.js';

const COLLECT_DIR = fileURLToPath(new URL('../../src/collect/', import.meta.url));

interface Input {
  file: string;
  kind: FileKind;
  text: string;
}

function fixtures(): Input[] {
  const out: Input[] = [];
  const walk = (dir: string, inFixtures: boolean): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p, inFixtures || e.name === 'fixtures');
      else if (inFixtures) {
        const file = relative(COLLECT_DIR, p).split('\\').join('/');
        out.push({ file, kind: fileKind(file, file.startsWith('text/')), text: readFileSync(p, 'utf8') });
      }
    }
  };
  walk(COLLECT_DIR, false);
  return out.sort((a, b) => (a.file < b.file ? -1 : 1));
}

function cozystack(): Input[] {
  const root = requireCozystackFixture();
  return cozystackFiles(root).map(({ path, kind }) => ({ file: path, kind, text: readFileSync(join(root, path), 'utf8') }));
}

/** Every broken promise of the collector contract in one result, as readable lines. */
function violations(input: Input, result: CollectResult): string[] {
  const out = spanMismatches(input.text, result.pins);
  const lineCount = input.text.split('\n').length;
  const claimed = new Map<string, string>();
  for (const pin of result.pins) {
    const where = `${pin.file}:${pin.line} ${pin.raw}`;
    if (pin.file !== input.file) out.push(`${where}: pin names file ${pin.file}, read ${input.file}`);
    if (pin.spans.length === 0) out.push(`${where}: no spans`);
    if (pin.form !== formOf(pin.ref)) out.push(`${where}: form ${pin.form}, ref says ${formOf(pin.ref)}`);
    const key = pin.spans.map((s) => `${s.field}@${s.start}-${s.end}`).join(',');
    const twin = claimed.get(key);
    if (twin !== undefined) out.push(`${where}: duplicate of ${twin} (same spans ${key})`);
    claimed.set(key, where);
  }
  for (const p of result.problems) {
    const where = `${p.file}:${p.line} ${p.code}`;
    if (p.file !== input.file) out.push(`${where}: problem names file ${p.file}, read ${input.file}`);
    if (p.line === undefined || !Number.isInteger(p.line) || p.line < 1 || p.line > lineCount) out.push(`${where}: line ${p.line} is not a line of the file (1-${lineCount})`);
    if (p.column !== undefined && (!Number.isInteger(p.column) || p.column < 1)) out.push(`${where}: column ${p.column}`);
    if (p.code === '' || p.reason === '') out.push(`${where}: empty code or reason`);
  }
  return out;
}

const FIXTURES = fixtures();
const COZYSTACK = cozystack();

describe.each(Object.entries(COLLECTORS) as [FileKind, (typeof COLLECTORS)[FileKind]][])('collector for %s files', (kind, collect) => {
  const own = [...FIXTURES, ...COZYSTACK].filter((f) => f.kind === kind);

  it('has fixtures of its own kind, and finds pins in them', () => {
    expect(FIXTURES.filter((f) => f.kind === kind).length, `no fixture of kind ${kind} under src/collect/**/fixtures`).toBeGreaterThan(0);
    expect(own.flatMap((f) => collect(f.text, acmeContext(f.file)).pins).length).toBeGreaterThan(0);
  });

  it('keeps the contract on every file of its kind', () => {
    expect(own.flatMap((f) => violations(f, collect(f.text, acmeContext(f.file))))).toEqual([]);
  });

  it('keeps the contract on files of every other kind too (whatever it is handed)', () => {
    const others = FIXTURES.filter((f) => f.kind !== kind);
    expect(others.flatMap((f) => violations(f, collect(f.text, acmeContext(f.file))))).toEqual([]);
  });
});
