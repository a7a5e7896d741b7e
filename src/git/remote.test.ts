/** The remote URL from .git/config without a git process: sections, quoting, worktrees and bare repositories. */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRemoteUrl, remoteUrlFromConfig } from './remote.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('remoteUrlFromConfig', () => {
  it.each([
    ['origin', '[remote "origin"]\n\turl = git@github.com:o/r.git\n', 'git@github.com:o/r.git'],
    ['origin over others', '[remote "upstream"]\n url = https://a.test/u/r\n[remote "origin"]\n url = https://a.test/o/r\n', 'https://a.test/o/r'],
    ['first remote when no origin', '[remote "fork"]\n url = https://a.test/f/r\n[remote "up"]\n url = https://a.test/u/r\n', 'https://a.test/f/r'],
    ['quoted, with a comment', '[remote "origin"]\n  URL = "https://a.test/o/r.git" ; mirror\n', 'https://a.test/o/r.git'],
    ['url outside a remote section', '[core]\n url = nope\n[branch "main"]\n remote = origin\n', undefined],
    ['first url of a remote with several', '[remote "origin"]\n url = https://a.test/1\n url = https://a.test/2\n', 'https://a.test/1'],
    ['empty', '', undefined],
  ])('%s', (_name, text, url) => {
    expect(remoteUrlFromConfig(text)).toBe(url);
  });
});

describe('readRemoteUrl', () => {
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe' });
  const root = mkdtempSync(join(tmpdir(), 'pinwatch-remote-'));
  dirs.push(root);
  const repo = join(root, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'root');

  it('is undefined without a remote and without a git dir', () => {
    expect(readRemoteUrl(repo)).toBeUndefined();
    expect(readRemoteUrl(join(root, 'nowhere'))).toBeUndefined();
  });

  it('reads origin from a checkout, from a linked worktree (gitdir → commondir) and from a bare repository', () => {
    git(repo, 'remote', 'add', 'origin', 'git@github.com:acme/platform.git');
    expect(readRemoteUrl(repo)).toBe('git@github.com:acme/platform.git');
    const wt = join(root, 'wt');
    git(repo, 'worktree', 'add', '-q', wt, '-b', 'side');
    expect(readRemoteUrl(wt)).toBe('git@github.com:acme/platform.git');
    const bare = join(root, 'bare.git');
    git(root, 'clone', '-q', '--bare', repo, bare);
    expect(readRemoteUrl(bare)).toBe(repo);
  });

  it('does not follow a .git file that names no gitdir', () => {
    const odd = join(root, 'odd');
    mkdirSync(odd);
    writeFileSync(join(odd, '.git'), 'not a pointer\n');
    expect(readRemoteUrl(odd)).toBeUndefined();
  });
});
