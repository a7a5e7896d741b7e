import { describe, expect, it } from 'vitest';
import { model, producer, write } from '../../test/support/builders.js';
import { normalizeKeyPath, producersFor, writeCoversPin, type PinPlace } from './stamps.js';
import type { PinWrite } from './types.js';

const F = 'pkg/values.yaml';

describe('writeCoversPin', () => {
  const keyed = (keyPath: string): PinWrite => write(F, keyPath, 'r');
  const lines = (...l: number[]): PinWrite => ({ ...write(F, undefined, 'r'), via: 'sed', lines: l });
  it.each<[string, PinWrite, PinPlace, boolean]>([
    ['same key', keyed('a.image'), { file: F, keyPath: 'a.image', line: 2 }, true],
    ['pin key spelled with a leading dot and brackets', keyed('a.image'), { file: F, keyPath: '.a["image"]', line: 2 }, true],
    ['write key spelled with brackets', keyed('a["image"]'), { file: F, keyPath: 'a.image', line: 2 }, true],
    ['list item under the written key', keyed('images'), { file: F, keyPath: 'images[0]', line: 2 }, true],
    ['written list item of a map pin', keyed('c[0]'), { file: F, keyPath: 'c[0].image', line: 2 }, true],
    ['written child of a split map', keyed('a.image.tag'), { file: F, keyPath: 'a.image', line: 2 }, true],
    ['another list item', keyed('images[1]'), { file: F, keyPath: 'images[0]', line: 2 }, false],
    ['a sibling sharing a prefix', keyed('a.image'), { file: F, keyPath: 'a.image2', line: 2 }, false],
    ['keyed write, keyless pin', keyed('a.image'), { file: F, line: 2 }, false],
    ['a write without a document index covers that key in every document', keyed('spec.image'), { file: F, keyPath: '[2].spec.image', line: 2 }, true],
    ['a write naming the document', keyed('[2].spec.image'), { file: F, keyPath: '[2].spec.image', line: 2 }, true],
    ['a write naming another document', keyed('[1].spec.image'), { file: F, keyPath: '[2].spec.image', line: 2 }, false],
    ['whole-file write (no key)', write(F, undefined, 'r'), { file: F, keyPath: 'a.image', line: 2 }, true],
    ['whole-file write (empty key)', keyed(''), { file: F, keyPath: 'a.image', line: 2 }, true],
    ['whole-file write, keyless pin', write(F, undefined, 'r'), { file: F, line: 7 }, true],
    ['line-narrowed write, pin on its line', lines(4), { file: F, keyPath: 'b.image', line: 4 }, true],
    ['line-narrowed write, pin on another line', lines(4), { file: F, keyPath: 'a.image', line: 2 }, false],
    ['line-narrowed write, place without a line', lines(4), { file: F, keyPath: 'a.image' }, true],
    ['another file', keyed('a.image'), { file: 'other/values.yaml', keyPath: 'a.image', line: 2 }, false],
  ])('%s', (_name, w, place, expected) => {
    expect(writeCoversPin(w, place)).toBe(expected);
  });

  it('normalizes key paths to the dot form pins use', () => {
    expect(normalizeKeyPath(' .a["b-c"].d[0] ')).toBe('a.b-c.d[0]');
  });

  it('producersFor lists each producer once, in model order', () => {
    const m = model([producer('pkg/Makefile', 'b', [write(F, 'a.image', 'x'), write(F, 'a', 'y')]), producer('pkg/Makefile', 'a', [write(F, 'a.image', 'z')])]);
    expect(producersFor(m, F, 'a.image', 2).map((p) => p.id)).toEqual(['pkg/Makefile:b', 'pkg/Makefile:a']);
  });
});
