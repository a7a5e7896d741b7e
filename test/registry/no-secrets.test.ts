/**
 * Issue 16, "done when": no credential, token, password or environment value in
 * any output or cache file after runs against a token-auth registry with
 * credentials in a docker config.json and a secret in the environment. The runs
 * use the on-disk digest cache (no --no-cache); stdout, stderr, every cache file
 * and every file of the repository are searched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/io.js';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { pushImage, startRegistry, type TestRegistry } from '../support/registry.js';
import { startTokenServer, type TokenServer } from '../support/token-server.js';

const PASSWORD = 'no-secrets-pass-7Hq2';
const ENV_SECRET = 'no-secrets-env-value-Kp4w';
const work = mkdtempSync(join(tmpdir(), 'pinwatch-no-secrets-'));

/** Every regular file under `dir` (recursively), path → bytes as latin1 (so any byte sequence is searchable). */
function filesUnder(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.set(join(e.parentPath, e.name), readFileSync(join(e.parentPath, e.name), 'latin1'));
  }
  return out;
}

describe('no secret in any output or cache file (token-auth registry)', () => {
  let tokens: TokenServer;
  let reg: TestRegistry;
  let repo: TestRepo;
  let ref: string;
  beforeAll(async () => {
    tokens = await startTokenServer();
    tokens.users = { alice: PASSWORD };
    // anonymous gets nothing: every read needs alice's credentials, so a token is issued for them
    tokens.policy = (user, _repo, wanted) => (user === undefined ? [] : wanted);
    reg = await startRegistry({ token: tokens });
    reg.pushAuth = (r) => `Bearer ${tokens.mint('pusher', r, ['pull', 'push'])}`;
    repo = makeRepo('pinwatch-no-secrets-repo-');
    repo.commit({ 'src/app/main.go': 'package main\n', 'src/app/Dockerfile': 'FROM scratch\nCOPY main.go /\n' }, 'initial');
    const built = repo.commit({ 'src/app/main.go': 'package main\n// 2\n' }, 'feat(app): two');
    const pushed = await pushImage(reg, 'team/app', 'v1', { labels: { 'org.opencontainers.image.revision': built } });
    ref = `${reg.host}/team/app:v1@${pushed.digest}`;
    repo.commit(
      {
        'pinwatch.yaml': `firstParty:\n  - ${reg.host}/team/\nimages:\n  app:\n    repository: ${reg.host}/team/app\n    context: src/app\n`,
        'deploy/values.yaml': `image: ${ref}\n`,
      },
      'pin the image',
    );
    repo.commit({ 'src/app/main.go': 'package main\n// 3\n' }, 'fix(app): three');
  });
  afterAll(async () => {
    await reg?.stop();
    await tokens?.stop();
    repo?.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  it('stale/check/explain --registry and inspect, twice (cache written, then read)', async () => {
    const docker = join(work, 'docker');
    mkdirSync(docker, { recursive: true });
    const basic = Buffer.from(`alice:${PASSWORD}`).toString('base64');
    writeFileSync(join(docker, 'config.json'), JSON.stringify({ auths: { [reg.host]: { auth: basic } } }));
    const cacheDir = join(work, 'cache');
    const env = { DOCKER_CONFIG: docker, PINWATCH_CACHE_DIR: cacheDir, HOME: work, PINWATCH_NO_SECRETS_TOKEN: ENV_SECRET, GITHUB_TOKEN: ENV_SECRET, PINWATCH_DEBUG: '1' };
    const printed: string[] = [];
    const runs: [string[], number][] = [];
    for (let round = 0; round < 2; round++) {
      for (const args of [
        ['stale', '--registry', '--format', 'json'],
        ['stale', '--registry'],
        ['check', '--registry', '--format', 'sarif'],
        ['explain', 'app', '--registry'],
        ['inspect', ref, '--format', 'json'],
        ['inspect', `${reg.host}/team/nope:v1`],
      ]) {
        const r = await runCli(['--repo', repo.dir, ...args], { env, cwd: repo.dir });
        runs.push([args, r.code]);
        printed.push(r.out, r.err);
      }
    }
    // the runs really used the registry and its tokens, and answered from the label
    expect(tokens.issued.length).toBeGreaterThan(0);
    expect(runs.filter(([a]) => a[0] !== 'inspect' || a[1] === ref).every(([, code]) => code !== 2), JSON.stringify(runs)).toBe(true);
    expect(printed.join('\n')).toMatch(/"method": ?"registry"/);
    const cache = filesUnder(cacheDir);
    expect(cache.size).toBeGreaterThan(0);
    const everything = new Map<string, string>([...printed.map((t, i) => [`output #${i}`, t] as [string, string]), ...cache, ...filesUnder(repo.dir)]);
    const secrets = [PASSWORD, basic, ENV_SECRET, ...tokens.issued, ...tokens.issued.map((t) => t.split('.')[2]!)];
    for (const [where, text] of everything) {
      for (const secret of secrets) expect(text.includes(secret), `${where} holds a secret (${secret.slice(0, 12)}…)`).toBe(false);
    }
  });
});
