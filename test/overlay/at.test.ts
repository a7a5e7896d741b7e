/** overlay --at must name a directory inside the checkout: one outside compares nothing and would pass. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-overlay-at-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

describe('pinwatch overlay --at', () => {
  it.each([
    ['../..', /^pinwatch: \[path-outside-repo\] --at "..\/.." goes up with \.\./],
    ['/etc', /^pinwatch: \[path-outside-repo\] --at "\/etc" is absolute/],
    ['~', /^pinwatch: \[path-outside-repo\] --at "~" starts with ~/],
  ])('--at %s is a path-outside-repo error, exit 2', async (at, message) => {
    const root = tree({ 'packages/a/values.yaml': 'image: nginx:1.25\n' });
    const from = tree({ 'a/values.yaml': 'image: nginx:1.26\n' });
    const r = await runCli(['--repo', root, 'overlay', '--from', from, '--at', at, '--dry-run'], { cwd: '/' });
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(message);
    expect(r.err).toMatch(/expected a subdirectory of the checkout, like --at packages/);
  });

  it('--at naming a symlink that leads out of the checkout is a path-outside-repo error', async () => {
    const root = tree({ 'packages/a/values.yaml': 'image: nginx:1.25\n' });
    const outside = tree({ 'a/values.yaml': 'image: nginx:1.25\n' });
    symlinkSync(outside, join(root, 'elsewhere'));
    const from = tree({ 'a/values.yaml': 'image: nginx:1.26\n' });
    const r = await runCli(['--repo', root, 'overlay', '--from', from, '--at', 'elsewhere', '--dry-run'], { cwd: '/' });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^pinwatch: \[path-outside-repo\] --at "elsewhere" leads out of the repository through a symlink/);
  });

  it('--at inside the checkout still overlays', async () => {
    const root = tree({ 'packages/a/values.yaml': 'image: nginx:1.25\n' });
    const from = tree({ 'a/values.yaml': 'image: nginx:1.26\n' });
    const r = await runCli(['--repo', root, 'overlay', '--from', from, '--at', 'packages', '--dry-run'], { cwd: '/' });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/overlaid=1/);
  });
});
