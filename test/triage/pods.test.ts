/**
 * `triage --pods` on a real git history: the builds a pod list runs (running's
 * engine) replace the pins'. A pod running an older build than the pin turns a
 * no-skew line into skew; a container whose build is unknown (pending, a
 * digest never pinned, no container at all) makes the line unknown, never
 * no-skew; a rollout judges each build; a CI-alias pull is the image; and the
 * git processes stay constant whatever the number of pods.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { captureIo, runCli } from '../support/io.js';
import { main } from '../../src/cli/main.js';
import { DIGEST } from '../support/stale.js';
import { podList, type PodSpec } from '../support/pods.js';
import { loadConfig } from '../../src/config/index.js';
import { parsePodsText, runningBuilds } from '../../src/running/index.js';
import { logLines, triageLog } from '../../src/triage/index.js';

const CONFIG = `firstParty: [ghcr.io/acme/]
aliases:
  "ci.acme.test/builds/": "ghcr.io/acme/"
images:
  api: { repository: ghcr.io/acme/api, inputs: ["cmd/api/**"], derive: false }
  worker: { repository: ghcr.io/acme/worker, inputs: ["cmd/worker/**"], derive: false }
`;
const A = DIGEST('a'); // api v1.0.0, built from `initial`
const B = DIGEST('b'); // api v1.1.0 (the pin at HEAD), built from the fix
const U = DIGEST('d'); // never in the tree
const W = DIGEST('e'); // worker

const apiV1 = `package main

import "log"

func admit(tenant string) {
\tlog.Printf("api request for tenant %s rejected: quota exceeded", tenant)
\tcount(tenant)
}
`;
const apiV2 = apiV1.replace('\tcount(tenant)\n', '\tcount(tenant) // acme bursts were counted twice\n');
const workerMain = 'package main\n\nimport "log"\n\nfunc main() { log.Printf("worker drained queue %s after shutdown", "jobs") }\n';
const values = (api: string) => `api:\n  image: "ghcr.io/acme/api:v1@${api}"\nworker:\n  image: "ghcr.io/acme/worker:v1@${W}"\n`;

const LINE = 'I0915 08:09:02.000000 1 main.go:6] api request for tenant acme rejected: quota exceeded';

let r: TestRepo;
let tmp: string;
const sha: Record<string, string> = {};
beforeAll(() => {
  r = makeRepo('pinwatch-triage-pods-');
  tmp = mkdtempSync(join(tmpdir(), 'pinwatch-triage-pods-'));
  sha.initial = r.commit({ 'pinwatch.yaml': CONFIG, 'cmd/api/main.go': apiV1, 'cmd/worker/main.go': workerMain }, 'feat: api and worker');
  sha.release10 = r.commit({ 'charts/values.yaml': values(A) }, 'Prepare release v1.0.0');
  sha.fix = r.commit({ 'cmd/api/main.go': apiV2 }, 'fix(api): count acme bursts once (#7)');
  sha.release11 = r.commit({ 'charts/values.yaml': values(B) }, 'Prepare release v1.1.0');
});
afterAll(() => {
  r?.cleanup();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const api = (name: string, imageID: string | undefined, image = 'ghcr.io/acme/api:v1', extra: Partial<PodSpec> = {}): PodSpec => ({
  name,
  namespace: 'lane',
  containers: [{ name: 'api', image, ...(imageID ? { imageID } : {}) }],
  ...extra,
});
const worker: PodSpec = { name: 'worker-0', namespace: 'lane', containers: [{ name: 'worker', image: 'ghcr.io/acme/worker:v1', imageID: `ghcr.io/acme/worker@${W}` }] };

function podsFile(pods: PodSpec[]): string {
  const p = join(tmp, `pods-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(p, podList(pods));
  return p;
}

async function triage(pods: PodSpec[] | undefined, ...flags: string[]) {
  const log = join(tmp, `lane-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(log, `${LINE}\n`);
  const run = await runCli(['--repo', r.dir, 'triage', log, '--format', 'json', ...(pods ? ['--pods', podsFile(pods)] : []), ...flags], { cwd: r.dir });
  return { ...run, doc: run.out ? JSON.parse(run.out) : undefined };
}

describe('pinwatch triage --pods', () => {
  it('judges the pinned build without --pods: the pin is current, the line is no-skew', async () => {
    const { code, doc } = await triage(undefined);
    expect(code).toBe(0);
    expect(doc.lines[0]).toMatchObject({ verdict: 'no-skew', matches: [{ file: 'cmd/api/main.go', line: 6, images: [{ name: 'api', buildSource: 'pinned', runningIn: null, build: { commit: sha.fix }, standing: 'current' }] }] });
    expect(doc.lines[0].explanation).toContain(`the pinned api was built from ${sha.fix.slice(0, 10)}`);
  });

  it('a pod running an older build than the pin turns the no-skew line into skew, with "the running"', async () => {
    const { code, doc } = await triage([api('api-0', `ghcr.io/acme/api@${A}`), worker]);
    expect(code).toBe(1);
    const [line] = doc.lines;
    expect(line.verdict).toBe('skew');
    const [img] = line.matches[0].images;
    expect(img).toMatchObject({ name: 'api', buildSource: 'running', runningIn: ['lane/api-0/api'], build: { commit: sha.initial, method: 'digest-history' }, standing: 'skew' });
    expect(img.lacks).toEqual([{ commit: sha.fix, subject: 'fix(api): count acme bursts once (#7)', pr: 7, date: expect.any(String), mentions: ['acme'] }]);
    expect(line.explanation).toBe(
      `this message comes from cmd/api/main.go:6, compiled into api; the running api was built from ${sha.initial.slice(0, 10)} (digest-history) and lacks ${sha.fix.slice(0, 10)} "fix(api): count acme bursts once (#7)", which mentions 'acme'`,
    );
  });

  it('a pod running the pinned build is no-skew, said of the running build', async () => {
    const { code, doc } = await triage([api('api-0', `docker-pullable://ghcr.io/acme/api@${B}`)]);
    expect(code).toBe(0);
    expect(doc.lines[0].verdict).toBe('no-skew');
    expect(doc.lines[0].explanation).toContain(`the running api was built from ${sha.fix.slice(0, 10)} (digest-history): lacks no commit to cmd/api/`);
  });

  it('a pull from the CI alias registry is the image', async () => {
    const { code, doc } = await triage([api('api-ci', `ci.acme.test/builds/api@${A}`, 'ci.acme.test/builds/api:main')]);
    expect(code).toBe(1);
    expect(doc.lines[0].matches[0].images[0]).toMatchObject({ repository: 'ghcr.io/acme/api', runningIn: ['lane/api-ci/api'], build: { commit: sha.initial }, standing: 'skew' });
  });

  it('a container whose build is unknown makes the line unknown, never no-skew', async () => {
    // pending (no imageID yet), a digest the tree never pinned, and no api container at all
    for (const pods of [[api('api-0', undefined)], [api('api-0', `ghcr.io/acme/api@${U}`)], [worker]]) {
      const { code, doc } = await triage(pods);
      expect(code).toBe(0);
      expect(doc.lines[0].verdict).toBe('unknown');
      expect(doc.lines[0].matches[0].images[0]).toMatchObject({ name: 'api', buildSource: 'running', standing: 'unknown', build: null });
    }
    const { doc } = await triage([worker]);
    expect(doc.lines[0].matches[0].images[0].reason).toContain('no container of the pod list runs it');
    // one pod current, its sibling pending: still unknown, both listed
    const half = await triage([api('api-0', `ghcr.io/acme/api@${B}`), api('api-1', undefined)]);
    expect(half.doc.lines[0].verdict).toBe('unknown');
    expect(half.doc.lines[0].matches[0].images.map((i: { standing: string; runningIn: string[] }) => [i.standing, i.runningIn])).toEqual([['current', ['lane/api-0/api']], ['unknown', ['lane/api-1/api']]]);
  });

  it('a rollout running two builds judges each: the older one makes it skew, each named with where it runs', async () => {
    const { code, doc } = await triage([api('api-new', `ghcr.io/acme/api@${B}`), api('api-old', `ghcr.io/acme/api@${A}`), api('api-old2', `ghcr.io/acme/api@${A}`)]);
    expect(code).toBe(1);
    const [line] = doc.lines;
    expect(line.verdict).toBe('skew');
    const images = line.matches[0].images.map((i: { standing: string; runningIn: string[] }) => [i.standing, i.runningIn]).sort();
    expect(images).toEqual([['current', ['lane/api-new/api']], ['skew', ['lane/api-old/api', 'lane/api-old2/api']]]);
    expect(line.explanation).toContain(`the running api in lane/api-old/api and 1 more container(s) was built from ${sha.initial.slice(0, 10)}`);
  });

  it('text names where each build runs; --pods - with the log on stdin is refused (exit 2)', async () => {
    const log = join(tmp, 'text.log');
    writeFileSync(log, `${LINE}\n`);
    const text = await runCli(['--repo', r.dir, 'triage', log, '--pods', podsFile([api('api-0', `ghcr.io/acme/api@${A}`)])], { cwd: r.dir });
    expect(text.code).toBe(1);
    expect(text.out).toContain('    api (running in lane/api-0/api): skew: its build');
    const io = Object.assign(captureIo({}, r.dir), { readStdin: async () => `${LINE}\n` });
    expect(await main(['--repo', r.dir, 'triage', '--pods', '-'], io)).toBe(2);
    expect(io.stderr.join('')).toContain('the log and --pods cannot both come from standard input');
    const ctx = await runCli(['--repo', r.dir, 'triage', log, '--context', 'kind'], { cwd: r.dir });
    expect(ctx.code).toBe(2);
    expect(ctx.err).toContain('go with --kubectl');
  });

  it('starts a constant number of git processes whatever the number of pods (1 vs 50)', async () => {
    const config = loadConfig(r.dir);
    const lines = logLines([['-', `${LINE}\n`]]);
    const cost = async (pods: PodSpec[]) => {
      const running = await runningBuilds(r.dir, config, { ...parsePodsText(podList(pods), 'pods.json'), files: ['pods.json'], filesWithoutPods: [] });
      const report = await triageLog(r.dir, config, lines, { running });
      return { git: running.gitProcesses + report.gitProcesses, report };
    };
    const one = await cost([api('api-0', `ghcr.io/acme/api@${A}`)]);
    const fifty = await cost(Array.from({ length: 50 }, (_, i) => api(`api-${i}`, `ghcr.io/acme/api@${i % 2 ? A : B}`)));
    expect(one.report.lines[0]!.verdict).toBe('skew');
    expect(fifty.report.lines[0]!.matches[0]!.images.map((i) => i.runningIn!.length).sort()).toEqual([25, 25]);
    expect(one.git).toBeGreaterThan(0);
    expect(fifty.git).toBe(one.git);
  });
});
