import { describe, expect, it } from 'vitest';
import { findSkip } from './skip-sets.js';

describe('findSkip', () => {
  const sets = { built: ['packages/a'], touched: ['packages/ab'], owned: ['packages/a/x'] };
  it.each([
    ['packages/a/values.yaml', { set: 'built', dir: 'packages/a' }],
    ['packages/ab/values.yaml', { set: 'touched', dir: 'packages/ab' }],
    ['packages/abc/values.yaml', undefined],
    ['packages/a/x/values.yaml', { set: 'built', dir: 'packages/a' }],
  ])('%s', (file, want) => {
    expect(findSkip(file, sets)).toEqual(want);
  });
});
