/**
 * walkReadsPath: whether the walk would read a path as a pin file, asked of
 * paths the tree may no longer have (a deleted pin file in history, stale/).
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import { walkReadsPath } from '../../src/scan/walk.js';

const CASES: [string, Partial<ReturnType<typeof defaultConfig>>, string, boolean][] = [
  ['default include: a values file', {}, 'charts/a/values.yaml', true],
  ['default include: an image tag file', {}, 'packages/x/images/y.tag', true],
  ['default include: a Dockerfile', {}, 'src/a/Dockerfile', true],
  ['default include: any other YAML is not', {}, 'charts/a/templates/deployment.yaml', false],
  ['default include: a Go file is not', {}, 'src/a/main.go', false],
  ['a configured include replaces the default', { include: ['deploy/**/*.yaml'] }, 'deploy/x/app.yaml', true],
  ['a configured include replaces the default: a values file elsewhere is not', { include: ['deploy/**/*.yaml'] }, 'charts/a/values.yaml', false],
  ['extraFiles, a literal path (a leading ./ is the same path)', { include: [], extraFiles: ['./manifests/install.yaml'] }, 'manifests/install.yaml', true],
  ['extraFiles, a glob', { include: [], extraFiles: ['bundles/*.yml'] }, 'bundles/v1.yml', true],
  ['nothing included, no extra file', { include: [], extraFiles: [] }, 'charts/a/values.yaml', false],
  ['excludes are not asked (it says yes a little more often)', { exclude: ['charts/'] }, 'charts/a/values.yaml', true],
];

describe('walkReadsPath', () => {
  for (const [name, over, path, want] of CASES) {
    it(`${name}: ${path} → ${want}`, () => {
      const config = { ...defaultConfig(), ...over };
      expect(walkReadsPath(config)(path)).toBe(want);
      // asked again through the same config's one predicate (its answers kept): the same answer
      expect(walkReadsPath(config)).toBe(walkReadsPath(config));
      expect(walkReadsPath(config)(path)).toBe(want);
    });
  }

  it('another config object gets its own predicate', () => {
    const a = { ...defaultConfig(), include: ['a/**/*.yaml'] };
    const b = { ...defaultConfig(), include: ['b/**/*.yaml'] };
    expect(walkReadsPath(a)('a/x.yaml')).toBe(true);
    expect(walkReadsPath(b)('a/x.yaml')).toBe(false);
  });
});
