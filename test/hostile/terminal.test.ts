/**
 * Terminal injection (issue 16, defect 8): a commit subject and a file name
 * carrying OSC 52 (clipboard write), OSC 0 (retitle), ESC[2J / ESC[1A ESC[2K
 * (erase, forge lines), CR and BEL, and a registry error text carrying OSC 52.
 * Text and GitHub output show them as visible escapes; Markdown also escapes
 * `|`, backticks and HTML. No raw ESC, BEL or CR reaches the output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '../support/io.js';
import { makeRepo } from '../support/repo.js';
import type { TestRepo } from '../support/repo.js';

const DIGEST = (c: string) => `sha256:${c.repeat(64)}`;
const values = (tag: string, digest: string) => `controller:\n  image: "ghcr.io/acme/osc:${tag}@${digest}"\n`;
const EVIL_NAME = 'ev\x1b[2Jil\r\x1b]0;title\x07';
const EVIL_FILE = `charts/values-${EVIL_NAME}.yaml`;
const EVIL_SUBJECT = 'fix: \x1b]52;c;cGF3bmVk\x07 clip \x1b[1A\x1b[2K forged\rover | `tick` <b>x</b>';
const RAW = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;

let repo: TestRepo;
let fix = '';
beforeAll(() => {
  repo = makeRepo('pinwatch-terminal-');
  repo.commit(
    {
      'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\nimages:\n  osc:\n    repository: ghcr.io/acme/osc\n    context: src/osc\n',
      'src/osc/Dockerfile': 'FROM alpine\nCOPY . /app\n',
      'src/osc/main.go': 'package main\n',
      'charts/osc/values.yaml': values('v1.4.0', DIGEST('a')),
      [EVIL_FILE]: 'image: ghcr.io/acme/osc:v3\n',
    },
    'initial',
  );
  repo.commit({ 'charts/osc/values.yaml': values('v1.5.0', DIGEST('b')) }, 'Prepare release v1.5.0');
  repo.git('checkout', '-q', '-b', 'fix');
  fix = repo.commit({ 'src/osc/main.go': 'package main\n// requeue\n' }, EVIL_SUBJECT);
  repo.git('checkout', '-q', 'main');
  repo.git('merge', '-q', '--no-ff', '-m', 'Merge pull request #3034 from acme/fix', 'fix');
});
afterAll(() => repo?.cleanup());

async function run(...argv: string[]) {
  const r = await runCli(['--repo', repo.dir, ...argv], { cwd: repo.dir });
  expect(r.out).not.toMatch(RAW);
  expect(r.err).not.toMatch(RAW);
  return r;
}
const lineWith = (out: string, needle: string) => out.split('\n').filter((l) => l.includes(needle));

describe('untrusted strings in text output', () => {
  it.each([['stale'], ['check']])('%s shows the subject and the file name as visible escapes', async (cmd) => {
    const { out } = await run(cmd);
    expect(lineWith(out, 'clip')).toEqual([`    ${fix.slice(0, 10)} 2026-01-01 fix      #3034   fix: \\x1b]52;c;cGF3bmVk\\x07 clip \\x1b[1A\\x1b[2K forged\\rover | \`tick\` <b>x</b>`]);
    expect(out).toContain('  pins: charts/values-ev\\x1b[2Jil\\r\\x1b]0;title\\x07.yaml:1\n');
  });

  it('lint text puts the escaped file name in file:line:col', async () => {
    const { out } = await run('lint');
    expect(out).toContain('charts/values-ev\\x1b[2Jil\\r\\x1b]0;title\\x07.yaml:1:8: error [first-party-missing-digest]');
  });

  it('scan text', async () => {
    const { out } = await run('scan');
    expect(out).toMatch(/^ {2}charts\/values-ev\\x1b\[2Jil\\r\\x1b\]0;title\\x07\.yaml:1 +image /m);
  });

  it('GitHub annotations escape the controls their own escaping leaves (ESC, BEL)', async () => {
    const { out } = await run('lint', '--format', 'github');
    expect(out).toContain('::error file=charts/values-ev\\x1b[2Jil%0D\\x1b]0;title\\x07.yaml,line=1,col=8,title=pinwatch first-party-missing-digest::');
  });
});

describe('untrusted strings in Markdown output', () => {
  it('stale: the subject cell escapes controls, pipes, backticks and HTML; file names are code spans', async () => {
    const { out } = await run('stale', '--format', 'markdown');
    expect(lineWith(out, 'clip')).toEqual([
      `| \`${fix.slice(0, 10)}\` | 2026-01-01 | fix | #3034 | fix: \\\\x1b\\]52;c;cGF3bmVk\\\\x07 clip \\\\x1b\\[1A\\\\x1b\\[2K forged\\\\rover \\| \\\`tick\\\` &lt;b&gt;x&lt;/b&gt; |`,
    ]);
    expect(out).toContain('pins: `charts/values-ev\\x1b[2Jil\\r\\x1b]0;title\\x07.yaml:1`');
  });

  it('lint: the location cell is a code span with the controls escaped', async () => {
    const { out } = await run('lint', '--format', 'markdown');
    expect(out).toContain('| 🔴 error | `first-party-missing-digest` | `charts/values-ev\\x1b[2Jil\\r\\x1b]0;title\\x07.yaml:1:8` |');
  });
});

describe('a registry error text', () => {
  let server: Server;
  let host = '';
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ errors: [{ code: 'MANIFEST_UNKNOWN', message: 'gone\x1b]52;c;cGF3bmVk\x07\x1b[2J\r' }] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('reaches the error line escaped', async () => {
    const r = await runCli(['inspect', `${host}/team/app:v1`]);
    expect(r.code).toBe(2);
    expect(r.err).not.toMatch(RAW);
    expect(r.err).toBe(`pinwatch: [manifest-unknown] GET http://${host}/v2/team/app/manifests/v1 answered HTTP 404 (MANIFEST_UNKNOWN: gone\\x1b]52;c;cGF3bmVk\\x07\\x1b[2J\\r)\n`);
  });
});
