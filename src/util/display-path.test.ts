import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayPath, isUnder } from './display-path.js';

describe('displayPath', () => {
  const root = resolve('/repo/root');
  it.each([
    ['a file inside', join(root, 'a', 'b.json'), 'a/b.json'],
    ['a file at the top', join(root, 'x.json'), 'x.json'],
    ['a directory whose name starts with two dots is inside', join(root, '..cache', 'x.json'), '..cache/x.json'],
    ['the root itself stays as given', root, root],
    ['a sibling stays as given', resolve('/repo/other/x.json'), resolve('/repo/other/x.json')],
    ['the parent stays as given', resolve('/repo'), resolve('/repo')],
  ])('%s', (_name, file, expected) => {
    expect(displayPath(root, file)).toBe(expected);
  });
});

describe('isUnder', () => {
  it.each([
    ['/r', '/r', true],
    ['/r', '/r/a/b.yaml', true],
    ['/r', '/r/..cache/x', true],
    ['/r', '/r/../x', false],
    ['/r', '/other', false],
  ])('%s ⊇ %s → %s', (root, file, want) => expect(isUnder(root, file)).toBe(want));
});
