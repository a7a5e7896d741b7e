/**
 * `report --html` links through the CLI on the demo repo (real git): a remote on a host
 * pinwatch does not know gives no link at all; `links.*` in pinwatch.yaml then makes
 * them (a Gitea-style form); a bad template is a config error with file:line, exit 2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDemoRepo } from '../../src/demo/index.js';
import { runCli } from '../support/io.js';

let repo: string;
let work: string;
beforeAll(() => {
  repo = buildDemoRepo();
  work = mkdtempSync(join(tmpdir(), 'pinwatch-html-links-'));
  execFileSync('git', ['remote', 'add', 'origin', 'https://ci:s3cret@git.acme.test/platform/monorepo.git'], { cwd: repo });
});
afterAll(() => {
  for (const d of [repo, work]) if (d) rmSync(d, { recursive: true, force: true });
});

const hrefs = (html: string) => [...html.matchAll(/<a href="([^"#][^"]*)"/g)].map((m) => m[1]!);

describe('report --html links', () => {
  it('an unknown host gives plain text, not a guessed link, and never shows the credentials', async () => {
    const file = join(work, 'plain.html');
    const r = await runCli(['--repo', repo, 'report', '--html', file]);
    expect(r.code).toBe(1);
    const html = readFileSync(file, 'utf8');
    expect(hrefs(html)).toEqual([]);
    expect(html).not.toContain('s3cret');
    expect(html).toContain('(no web URL');
  });

  it('links.* templates in pinwatch.yaml make commit, PR and file links on any host', async () => {
    appendFileSync(
      join(repo, 'pinwatch.yaml'),
      '\nlinks:\n  repository: https://git.acme.test/platform/monorepo\n  commit: "{repo}/commit/{commit}"\n  pr: "{repo}/pulls/{pr}"\n  file: "{repo}/src/commit/{commit}/{path}#L{line}"\n',
    );
    const file = join(work, 'templated.html');
    const r = await runCli(['--repo', repo, 'report', '--html', file]);
    expect(r.code).toBe(1);
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
    const links = hrefs(readFileSync(file, 'utf8'));
    expect(links).toContain('https://git.acme.test/platform/monorepo');
    expect(links).toContain('https://git.acme.test/platform/monorepo/pulls/42');
    expect(links).toContain(`https://git.acme.test/platform/monorepo/commit/${head}`);
    expect(links.some((h) => h.startsWith(`https://git.acme.test/platform/monorepo/src/commit/${head}/`) && /#L\d+$/.test(h))).toBe(true);
    expect(links.every((h) => h.startsWith('https://git.acme.test/platform/monorepo'))).toBe(true);
  });

  it('a template that is not an http(s) URL is refused with file:line and exit 2', async () => {
    appendFileSync(join(repo, 'pinwatch.yaml'), '  # the next line breaks it\n');
    const text = readFileSync(join(repo, 'pinwatch.yaml'), 'utf8').replace('pr: "{repo}/pulls/{pr}"', 'pr: "javascript:alert({pr})"');
    const line = text.split('\n').findIndex((l) => l.includes('javascript:')) + 1;
    writeFileSync(join(repo, 'pinwatch.yaml'), text);
    const r = await runCli(['--repo', repo, 'report', '--html', join(work, 'bad.html')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`pinwatch.yaml:${line}`);
    expect(r.err).toContain('does not start with http://, https:// or {repo}');
    expect(r.err).not.toMatch(/\n\s+at /); // no stack trace
  });
});
