/**
 * Commit types and the --fail-on-stale fix policy on a real history, through the
 * CLI: an "Area: subject" prefix is not a type; a fix is read from the type, a
 * `Fixes:`/`Changelog: fixed` trailer, or `stale.fixPattern` matched against the message.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { runCli } from '../support/io.js';
import { DIGEST, values } from '../support/stale.js';

const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

const config = (extra = '') => `firstParty: [ghcr.io/acme/]
images:
  osc:
    repository: ghcr.io/acme/osc
    context: src/osc
${extra}`;

function released(extra = '') {
  const r = makeRepo();
  repos.push(r);
  r.commit({ 'pinwatch.yaml': config(extra), 'src/osc/Dockerfile': 'FROM alpine\nCOPY . /app\n', 'src/osc/main.go': '1\n', 'charts/osc/values.yaml': values('osc', 'v1.4.0', DIGEST('a')) }, 'initial');
  r.commit({ 'charts/osc/values.yaml': values('osc', 'v1.5.0', DIGEST('b')) }, 'Prepare release v1.5.0');
  return r;
}

async function stale(r: TestRepo) {
  const res = await runCli(['--repo', r.dir, 'stale', '--format', 'json'], { cwd: r.dir });
  const img = JSON.parse(res.out).images[0] as { unshipped: { subject: string; type: string | null; fix: string | null }[] };
  return { code: res.code, unshipped: img.unshipped.map((u) => [u.subject, u.type, u.fix]) };
}

describe('commit types and the fix policy', () => {
  it('an "Area: subject" commit is neither typed nor a fix: stale, but the default policy passes', async () => {
    const r = released();
    r.commit({ 'src/osc/main.go': '2\n' }, 'Images: bump the base image');
    expect(await stale(r)).toEqual({ code: 0, unshipped: [['Images: bump the base image', null, null]] });
  });

  it('a Fixes: or Changelog: fixed trailer makes a commit a fix; other trailers do not', async () => {
    const r = released();
    r.commit({ 'src/osc/main.go': '2\n' }, 'Images: bump the base image\n\nSigned-off-by: Dev <dev@acme.test>\n');
    expect((await stale(r)).code).toBe(0);
    r.commit({ 'src/osc/main.go': '3\n' }, 'controller: requeue until ready\n\nThe claim converges now.\n\nFixes: #3034\nSigned-off-by: Dev <dev@acme.test>\n');
    r.commit({ 'src/osc/main.go': '4\n' }, 'controller: handle a nil bucket\n\nChangelog: fixed\n');
    const got = await stale(r);
    expect(got.code).toBe(1);
    expect(got.unshipped).toEqual([
      ['controller: handle a nil bucket', null, 'trailer Changelog: fixed'],
      ['controller: requeue until ready', null, 'trailer Fixes: #3034'],
      ['Images: bump the base image', null, null],
    ]);
  });

  it('a "Fixes:" line in the body that is not a trailer block counts nothing (git reads the trailers)', async () => {
    const r = released();
    r.commit({ 'src/osc/main.go': '2\n' }, 'controller: tidy\n\nFixes: nothing, this paragraph\ngoes on as prose.\n');
    expect((await stale(r)).code).toBe(0);
  });

  it('stale.fixPattern is matched against the whole message, line by line', async () => {
    const r = released('stale:\n  fixPattern: "^\\\\[bugfix\\\\]|^\\\\w+: [Ff]ix\\\\b"\n');
    r.commit({ 'src/osc/main.go': '2\n' }, 'controller: bump\n\n[bugfix] the requeue was lost\n');
    r.commit({ 'src/osc/main.go': '3\n' }, 'controller: Fix the nil bucket');
    r.commit({ 'src/osc/main.go': '4\n' }, 'controller: add a metric');
    const got = await stale(r);
    expect(got.code).toBe(1);
    expect(got.unshipped.map(([s, , f]) => [s, f])).toEqual([
      ['controller: add a metric', null],
      ['controller: Fix the nil bucket', 'stale.fixPattern ^\\[bugfix\\]|^\\w+: [Ff]ix\\b'],
      ['controller: bump', 'stale.fixPattern ^\\[bugfix\\]|^\\w+: [Ff]ix\\b'],
    ]);
  });

  it('rejects a fixPattern that is not a regular expression, at its line', async () => {
    const r = released('stale:\n  fixPattern: "(unclosed"\n');
    const res = await runCli(['--repo', r.dir, 'stale'], { cwd: r.dir });
    expect(res.code).toBe(2);
    expect(res.err).toMatch(/pinwatch\.yaml:7.*stale\.fixPattern: not a regular expression/);
  });
});
