/** Remote URL → web URL and forge, templates over defaults, and expansion that never yields a broken or non-http link. */
import { describe, expect, it } from 'vitest';
import { expandLink, forgeOfHost, resolveLinks, webUrlOfRemote } from './links.js';
import { linkTemplateProblem } from '../config/links.js';

describe('webUrlOfRemote', () => {
  it.each([
    ['https://github.com/cozystack/cozystack.git', 'https://github.com/cozystack/cozystack'],
    ['https://github.com/cozystack/cozystack', 'https://github.com/cozystack/cozystack'],
    ['https://github.com/cozystack/cozystack/', 'https://github.com/cozystack/cozystack'],
    ['https://x-access-token:ghs_SECRET@github.com/o/r.git', 'https://github.com/o/r'],
    ['git@github.com:o/r.git', 'https://github.com/o/r'],
    ['github.com:o/r', 'https://github.com/o/r'],
    ['ssh://git@github.com/o/r.git', 'https://github.com/o/r'],
    ['ssh://git@gitlab.example.com:2222/grp/sub/app.git', 'https://gitlab.example.com/grp/sub/app'],
    ['git://git.example.org/proj/app.git', 'https://git.example.org/proj/app'],
    ['http://GitLab.Corp.Test/g/app', 'https://gitlab.corp.test/g/app'],
  ])('%s → %s', (remote, web) => {
    expect(webUrlOfRemote(remote)?.url).toBe(web);
  });

  it.each([['/work/.mirror/cozystack+cozystack/repo'], ['../other'], ['file:///srv/git/app.git'], ['C:/repos/app'], ['https://github.com/'], ['https://github.com/o'], ['git@github.com:o/r"><script>.git'], ['']])(
    'no web URL for %j',
    (remote) => {
      expect(webUrlOfRemote(remote)).toBeUndefined();
    },
  );

  it('never keeps credentials', () => {
    expect(JSON.stringify(resolveLinks('https://user:ghp_TOKEN@github.com/o/r.git'))).not.toMatch(/TOKEN|user/);
  });
});

describe('forgeOfHost', () => {
  it.each([
    ['github.com', 'github'],
    ['github.acme.corp', 'github'],
    ['gitlab.com', 'gitlab'],
    ['gitlab.acme.corp', 'gitlab'],
    ['git.acme.corp', 'other'],
    ['notgithub.com', 'other'],
  ])('%s is %s', (host, forge) => {
    expect(forgeOfHost(host)).toBe(forge);
  });
});

describe('resolveLinks and expandLink', () => {
  const sha = '0123456789abcdef0123456789abcdef01234567';
  it('GitHub defaults', () => {
    const l = resolveLinks('git@github.com:o/r.git');
    expect(l).toEqual({ repository: 'https://github.com/o/r', forge: 'github', commit: '{repo}/commit/{commit}', pr: '{repo}/pull/{pr}', file: '{repo}/blob/{commit}/{path}#L{line}' });
    expect(expandLink(l.commit, l, { commit: sha })).toBe(`https://github.com/o/r/commit/${sha}`);
    expect(expandLink(l.pr, l, { pr: 3273 })).toBe('https://github.com/o/r/pull/3273');
    expect(expandLink(l.file, l, { commit: sha, path: 'a b/#c.yaml', line: 12 })).toBe(`https://github.com/o/r/blob/${sha}/a%20b/%23c.yaml#L12`);
    expect(expandLink(l.file, l, { commit: sha, path: 'a.yaml' })).toBe(`https://github.com/o/r/blob/${sha}/a.yaml`);
  });

  it('GitLab defaults', () => {
    const l = resolveLinks('https://gitlab.com/g/s/app.git');
    expect(expandLink(l.commit, l, { commit: sha })).toBe(`https://gitlab.com/g/s/app/-/commit/${sha}`);
    expect(expandLink(l.pr, l, { pr: 5 })).toBe('https://gitlab.com/g/s/app/-/merge_requests/5');
    expect(expandLink(l.file, l, { commit: sha, path: 'x.yaml', line: 2 })).toBe(`https://gitlab.com/g/s/app/-/blob/${sha}/x.yaml#L2`);
  });

  it('no remote, a local remote or an unknown host: no links unless configured', () => {
    expect(resolveLinks(undefined)).toEqual({});
    expect(resolveLinks('/srv/git/app')).toEqual({});
    expect(resolveLinks('https://git.acme.test/app.git')).toEqual({ forge: 'other' });
    const l = resolveLinks('https://git.acme.test/app.git', { repository: 'https://git.acme.test/app/', commit: '{repo}/commit/{commit}' });
    expect(l).toEqual({ repository: 'https://git.acme.test/app', forge: 'other', commit: '{repo}/commit/{commit}' });
    expect(expandLink(l.pr, l, { pr: 1 })).toBeUndefined();
    // an absolute template works without a repository URL
    const abs = resolveLinks(undefined, { pr: 'https://review.test/{pr}' });
    expect(expandLink(abs.pr, abs, { pr: 9 })).toBe('https://review.test/9');
    expect(abs.commit).toBeUndefined();
  });

  it('refuses values that would make a bad link', () => {
    const l = resolveLinks('git@github.com:o/r.git');
    expect(expandLink(l.commit, l, { commit: 'not-a-sha' })).toBeUndefined();
    expect(expandLink(l.pr, l, { pr: -1 })).toBeUndefined();
    expect(expandLink(l.pr, l, { pr: 1.5 })).toBeUndefined();
    expect(expandLink('javascript:alert({pr})', l, { pr: 1 })).toBeUndefined();
    expect(expandLink('{repo}/x/{line}', l, {})).toBeUndefined(); // {line} outside a fragment and no line
  });
});

describe('linkTemplateProblem (config links.*)', () => {
  it.each([
    ['repository', 'https://git.acme.test/app', undefined],
    ['repository', 'git.acme.test/app', 'is not an http(s) URL'],
    ['commit', '{repo}/commit/{commit}', undefined],
    ['commit', 'https://x.test/{short}', undefined],
    ['commit', '{repo}/commit/', 'has no {commit}'],
    ['pr', 'javascript:{pr}', 'does not start with http://, https:// or {repo}'],
    ['pr', '{repo}/pull/{number}', 'has no {pr}'],
    ['file', '{repo}/src/{commit}/{path}?line={line}', undefined],
    ['file', '{repo}/blob/{sha}/{path}', 'unknown placeholder {sha}'],
  ] as const)('%s %j', (key, value, problem) => {
    const got = linkTemplateProblem(key, value);
    if (problem === undefined) expect(got).toBeUndefined();
    else expect(got).toContain(problem);
  });
});
