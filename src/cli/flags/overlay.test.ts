import { describe, expect, it } from 'vitest';
import { PinwatchError } from '../../errors.js';
import { parseDirList } from './overlay.js';

describe('parseDirList', () => {
  it.each([
    ['JSON array (a CI matrix)', '["packages/a","packages/b/"]', ['packages/a', 'packages/b']],
    ['comma list', 'packages/a,packages/b', ['packages/a', 'packages/b']],
    ['space list', ' packages/a   ./packages/b ', ['packages/a', 'packages/b']],
    ['newline list', 'packages/a\npackages/b\n', ['packages/a', 'packages/b']],
    ['mixed', 'packages/a, packages/b\n\tpackages/c', ['packages/a', 'packages/b', 'packages/c']],
    ['empty array', '[]', []],
    ['empty string', '', []],
    ['undefined', undefined, []],
  ])('%s', (_name, input, want) => {
    expect(parseDirList(input, '--built')).toEqual(want);
  });

  it('a broken JSON array is a usage error that quotes the input and shows the expected form', () => {
    const run = () => parseDirList('["packages/a"', '--built');
    expect(run).toThrow(PinwatchError);
    expect(run).toThrow(/--built looks like a JSON array but does not parse .*saw "\[\\"packages\/a\\"".*expected \["dir\/a","dir\/b"\]/);
  });

  it('a JSON array of non-strings is a usage error', () => {
    expect(() => parseDirList('[1,2]', '--owned')).toThrow(/--owned must be a JSON array of strings; saw "\[1,2\]"; expected \["dir\/a","dir\/b"\] or dir\/a,dir\/b$/);
  });
});
