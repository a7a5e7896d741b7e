import { describe, expect, it } from 'vitest';
import { envReads, readYqArgs, yqAssignments, yqPathToKeyPath } from './yq.js';

describe('readYqArgs', () => {
  const cases: { args: string[]; inPlace: boolean; expression?: string; files: string[] }[] = [
    { args: ['-i', '.a = 1', 'v.yaml'], inPlace: true, expression: '.a = 1', files: ['v.yaml'] },
    { args: ['--inplace', '.a = 1', 'x/v.yaml'], inPlace: true, expression: '.a = 1', files: ['x/v.yaml'] },
    { args: ['e', '-i', '.a = 1', 'v.yaml'], inPlace: true, expression: '.a = 1', files: ['v.yaml'] },
    { args: ['eval', '.a = 1', '-i', 'v.yaml'], inPlace: true, expression: '.a = 1', files: ['v.yaml'] },
    { args: ['-o', 'json', '-i', '.a = 1', 'v.json'], inPlace: true, expression: '.a = 1', files: ['v.json'] },
    { args: ['.seaweedfs.image', '../s/values.yaml'], inPlace: false, expression: '.seaweedfs.image', files: ['../s/values.yaml'] },
    { args: ['-e', '-o', 'json', '-r', '.["x"]', 'm.json'], inPlace: false, expression: '.["x"]', files: ['m.json'] },
  ];
  it.each(cases)('$args', ({ args, inPlace, expression, files }) => {
    expect(readYqArgs(args)).toEqual({ inPlace, expression, files });
  });
});

describe('yqAssignments', () => {
  const cases: { expr: string; want: { keyPath: string; rhs: string }[] }[] = [
    { expr: '.objectstorage.controller.image = strenv(IMAGE)', want: [{ keyPath: 'objectstorage.controller.image', rhs: 'strenv(IMAGE)' }] },
    {
      expr: '.a.image = strenv(I) | .b.image = strenv(I)',
      want: [
        { keyPath: 'a.image', rhs: 'strenv(I)' },
        { keyPath: 'b.image', rhs: 'strenv(I)' },
      ],
    },
    { expr: '.x.platformSourceRef = "digest=" + strenv(DIGEST)', want: [{ keyPath: 'x.platformSourceRef', rhs: '"digest=" + strenv(DIGEST)' }] },
    { expr: '.kamaji.extraArgs[0] = "--migrate-image=" + .a.repository', want: [{ keyPath: 'kamaji.extraArgs[0]', rhs: '"--migrate-image=" + .a.repository' }] },
    { expr: '.["redis-operator"].image.tag |= strenv(TAG)', want: [{ keyPath: 'redis-operator.image.tag', rhs: 'strenv(TAG)' }] },
    { expr: 'del(select(.kind=="Namespace"))', want: [] },
    { expr: '(select(.kind == "Namespace") | .metadata.labels.x) = "privileged"', want: [] },
    { expr: '.args += ["--x"]', want: [] },
  ];
  it.each(cases)('$expr', ({ expr, want }) => {
    expect(yqAssignments(expr)).toEqual(want);
  });
});

describe('yqPathToKeyPath', () => {
  const cases: [string, string | undefined][] = [
    ['.a.b.c', 'a.b.c'],
    ['.a["b-c"].d', 'a.b-c.d'],
    ['.a."b.c"', 'a.b.c'],
    ['.spec.containers[0].image', 'spec.containers[0].image'],
    ['.a[]', undefined],
    ['select(.a)', undefined],
    ['.', undefined],
  ];
  it.each(cases)('%s → %s', (path, want) => {
    expect(yqPathToKeyPath(path)).toBe(want);
  });
});

it('envReads finds strenv and env', () => {
  expect(envReads('"x" + strenv(A) + env(B)')).toEqual(['A', 'B']);
});
