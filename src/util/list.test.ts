import { describe, expect, it } from 'vitest';
import { listSome } from './list.js';

describe('listSome', () => {
  it.each([
    [[], 8, ''],
    [['a'], 8, 'a'],
    [['a', 'b', 'c'], 3, 'a, b, c'],
    [['a', 'b', 'c', 'd'], 3, 'a, b, c, … and 1 more'],
    [Array.from({ length: 20000 }, (_, i) => `v${i}`), 2, 'v0, v1, … and 19,998 more'],
  ])('%j (shown %i) → %j', (items, shown, want) => expect(listSome(items, shown)).toBe(want));
});
