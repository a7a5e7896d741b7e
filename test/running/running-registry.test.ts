/**
 * `running --registry` on a real registry (docker-registry on loopback): a
 * platform-specific running digest is matched to the pinned index (and is
 * unknown, saying why, without --registry); a build never pinned is placed by
 * its revision label — diverged when it sits on another line of history — and
 * the registry is asked where the container runs from (an alias), not the
 * canonical repository.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { pushImage, pushIndex, startRegistry, type PushedImage, type TestRegistry } from '../support/registry.js';
import { podList } from '../support/pods.js';
import { loadConfig } from '../../src/config/index.js';
import { runningBuilds, type PodList } from '../../src/running/index.js';
import { addText } from '../../src/running/pods-read.js';
import { runCli } from '../support/io.js';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

let reg: TestRegistry;
let r: TestRepo;
let amd64: PushedImage;
let index: string;
let sideBuild: PushedImage;
const c: Record<string, string> = {};

beforeAll(async () => {
  reg = await startRegistry();
  r = makeRepo('pinwatch-running-reg-');
  const config = `firstParty: ["${reg.host}/acme/"]
aliases:
  "${reg.host}/ci/": "${reg.host}/acme/"
images:
  web: { repository: ${reg.host}/acme/web, inputs: ["src/web/**"], derive: false }
`;
  c.initial = r.commit({ 'pinwatch.yaml': config, 'src/web/main.go': '0\n' }, 'initial');
  r.git('checkout', '-q', '-b', 'experiment');
  c.side = r.commit({ 'src/web/exp.go': 'x\n' }, 'feat(web): experiment');
  r.git('checkout', '-q', 'main');
  c.one = r.commit({ 'src/web/main.go': '1\n' }, 'fix(web): one (#7)');
  amd64 = await pushImage(reg, 'acme/web', 'v1-amd64', { content: 'web amd64', untagged: true });
  const arm64 = await pushImage(reg, 'acme/web', 'v1-arm64', { content: 'web arm64', architecture: 'arm64', untagged: true });
  index = await pushIndex(reg, 'acme/web', 'v1', [
    { image: amd64, platform: { os: 'linux', architecture: 'amd64' } },
    { image: arm64, platform: { os: 'linux', architecture: 'arm64' } },
  ]);
  c.release = r.commit({ 'deploy/values.yaml': `web:\n  image: "${reg.host}/acme/web:v1@${index}"\n` }, 'Prepare release v1');
  // a build of the experiment branch, pushed only to the CI registry
  sideBuild = await pushImage(reg, 'ci/web', 'exp', { content: 'web experiment', labels: { 'org.opencontainers.image.revision': c.side } });
});
afterAll(async () => {
  r?.cleanup();
  await reg?.stop();
});

function pods(): PodList {
  const list: PodList = { containers: [], pods: 0, files: [], filesWithoutPods: [] };
  const text = podList([
    { name: 'web-amd64', containers: [{ name: 'web', image: `${reg.host}/acme/web:v1`, imageID: `${reg.host}/acme/web@${amd64.digest}` }] },
    { name: 'web-exp', containers: [{ name: 'web', image: `${reg.host}/ci/web:exp`, imageID: `${reg.host}/ci/web@${sideBuild.digest}` }] },
  ]);
  addText(list, text, 'pods.json', true);
  return list;
}

describe('running --registry', () => {
  it('without the registry, a platform digest is unknown and says to ask it', async () => {
    const report = await runningBuilds(r.dir, loadConfig(r.dir), pods());
    const web = report.containers.find((x) => x.pod === 'web-amd64')!;
    expect(web.status).toBe('unknown');
    expect(web.reason).toContain('platform-specific manifest of a pinned index');
    expect(web.reason).toContain('--registry');
  });

  it('matches the platform digest to its index (as-pinned) and places a never-pinned CI build by its label (diverged)', async () => {
    const report = await runningBuilds(r.dir, loadConfig(r.dir), pods(), { registry: { opts: { insecureRegistries: [], cacheDir: false } } });
    const web = report.containers.find((x) => x.pod === 'web-amd64')!;
    expect(web).toMatchObject({ status: 'as-pinned', runningDigest: index, platform: { manifest: amd64.digest, index }, builtFrom: { commit: c.one } });
    const exp = report.containers.find((x) => x.pod === 'web-exp')!;
    expect(exp).toMatchObject({ status: 'diverged', canonical: `${reg.host}/acme/web`, builtFrom: { commit: c.side, method: 'registry' }, pinned: { digest: index, builtFrom: { commit: c.one } } });
    expect(exp.lacksVsPin.map((l) => [l.commit, l.pr])).toEqual([[c.one, 7]]);
    expect(report.notes).toEqual([]);
  });

  it('pinwatch running --registry: the same answers through the CLI', async () => {
    const file = join(r.dir, '..', `${r.dir.split('/').pop()}-pods.json`);
    writeFileSync(file, podList([{ name: 'web-amd64', containers: [{ name: 'web', image: `${reg.host}/acme/web:v1`, imageID: `${reg.host}/acme/web@${amd64.digest}` }] }]));
    try {
      const run = await runCli(['--repo', r.dir, '--format', 'json', 'running', '--pods', file, '--registry', '--no-cache']);
      expect(run.err).toBe('');
      const doc = JSON.parse(run.out) as { containers: Record<string, unknown>[] };
      expect(doc.containers[0]).toMatchObject({ status: 'as-pinned', runningDigest: index, platform: { manifest: amd64.digest, index } });
      expect(run.code).toBe(0);
    } finally {
      rmSync(file, { force: true });
    }
  });
});
