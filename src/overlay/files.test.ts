import { describe, expect, it } from 'vitest';
import { rebaseGlobs } from './files.js';

describe('rebaseGlobs: globs seen from the artifact root standing for packages/', () => {
  it.each([
    ['packages/**/values.yaml', ['**/values.yaml']],
    ['./packages/*/*/images/*.tag', ['*/*/images/*.tag']],
    ['**/values.yaml', ['**/values.yaml']],
    ['hack/values.yaml', []],
    ['other/**', []],
    ['packagesX/values.yaml', []],
    ['packages/system/multus/templates/multus-daemonset-thick.yml', ['system/multus/templates/multus-daemonset-thick.yml']],
  ])('%s', (glob, want) => {
    expect(rebaseGlobs([glob], 'packages')).toEqual(want);
  });
});
