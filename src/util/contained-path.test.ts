import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containedPath } from './repo-path.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** root/ with deploy/, in/ -> root/deploy, out/ -> a folder outside; outside/ beside it. */
function layout() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'pinwatch-repo-path-')));
  dirs.push(base);
  const root = join(base, 'root');
  mkdirSync(join(root, 'deploy'), { recursive: true });
  mkdirSync(join(base, 'outside'));
  symlinkSync(join(root, 'deploy'), join(root, 'in'));
  symlinkSync(join(base, 'outside'), join(root, 'out'));
  return { base, root };
}

describe('containedPath', () => {
  it.each([
    ['a plain repo-relative file', 'deploy/values.yaml', 'root/deploy/values.yaml'],
    ['a file not yet there, in folders not yet there', 'a/b/c.json', 'root/a/b/c.json'],
    ['./ and inner ../ that stay inside', './deploy/../deploy/x.yaml', 'root/deploy/x.yaml'],
    ['a symlinked folder pointing inside: its real path', 'in/values.yaml', 'root/deploy/values.yaml'],
  ])('accepts %s', (_, rel, want) => {
    const { base, root } = layout();
    expect(containedPath(root, rel)).toBe(join(base, want));
  });

  it('accepts an absolute path inside the repository', () => {
    const { root } = layout();
    expect(containedPath(root, join(root, 'deploy', 'v.yaml'))).toBe(join(root, 'deploy', 'v.yaml'));
  });

  it.each([
    ['../ leading out', '../x.json'],
    ['a symlinked folder pointing outside', 'out/deploy.yaml'],
    ['a symlinked folder pointing outside, deeper and not yet there', 'out/new/dir/x.json'],
    ['an absolute path outside', '/etc/pinwatch-never.json'],
  ])('refuses %s with path-outside-repo naming the path', (_, rel) => {
    const { root } = layout();
    expect(() => containedPath(root, rel, 'the baseline')).toThrow(
      expect.objectContaining({ code: 'path-outside-repo', message: expect.stringContaining(`the baseline ${JSON.stringify(rel)} resolves to`) }),
    );
  });
});
