/**
 * `running` end to end on a real git history: the statuses as-pinned, older,
 * newer and unknown (diverged and platform digests: running-registry.test.ts), both imageID forms, an init container, an alias
 * registry, a pending pod, a half-finished rollout, a third-party container,
 * lacks / lacksVsPin with merges out, and the cost (git processes constant for
 * 1 and 50 containers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { DIGEST } from '../support/stale.js';
import { podList, type PodSpec } from '../support/pods.js';
import { loadConfig } from '../../src/config/index.js';
import { runningBuilds, parsePodsText, type PodList, type RunningContainer } from '../../src/running/index.js';
import { addText } from '../../src/running/pods-read.js';
import { runCli } from '../support/io.js';

const A = DIGEST('a'); // osc v1.0, built from `initial`
const B = DIGEST('b'); // osc v1.1 (the pin), built from the fix-X commit
const N = DIGEST('c'); // osc bumped on main then reverted: built from after fix Y
const U = DIGEST('d'); // never in the tree
const P = DIGEST('e'); // api pin

const CONFIG = `firstParty: [ghcr.io/acme/]
aliases:
  "ci.acme.test/builds/": "ghcr.io/acme/"
images:
  osc: { repository: ghcr.io/acme/osc, inputs: ["src/osc/**"], derive: false }
  api: { repository: ghcr.io/acme/api, inputs: ["src/api/**"], derive: false }
`;
const osc = (tag: string, d: string) => `controller:\n  image: "ghcr.io/acme/osc:${tag}@${d}"\n`;

let r: TestRepo;
const c: Record<string, string> = {};
beforeAll(() => {
  r = makeRepo('pinwatch-running-');
  c.initial = r.commit({ 'pinwatch.yaml': CONFIG, 'src/osc/main.go': 'package main\n', 'src/api/main.go': 'package main\n', 'docs/a.md': 'a\n' }, 'initial');
  c.release10 = r.commit({ 'charts/osc/values.yaml': osc('v1.0.0', A), 'charts/api/values.yaml': `api:\n  image: "ghcr.io/acme/api:v1@${P}"\n` }, 'Prepare release v1.0.0');
  c.fixX = r.commit({ 'src/osc/main.go': 'package main\n// X\n' }, 'fix(osc): requeue claims (#11)');
  c.release11 = r.commit({ 'charts/osc/values.yaml': osc('v1.1.0', B) }, 'Prepare release v1.1.0');
  r.git('checkout', '-q', '-b', 'fix-y');
  c.fixY = r.commit({ 'src/osc/main.go': 'package main\n// X\n// Y\n' }, 'fix(osc): converge readiness');
  r.git('checkout', '-q', 'main');
  r.commit({ 'docs/a.md': 'b\n' }, 'docs: a');
  r.git('merge', '-q', '--no-ff', '-m', 'Merge pull request #12 from acme/fix-y', 'fix-y');
  c.mergeY = r.git('rev-parse', 'HEAD');
  c.bumpN = r.commit({ 'charts/osc/values.yaml': osc('main', N) }, 'ci: overlay osc main build');
  c.revert = r.commit({ 'charts/osc/values.yaml': osc('v1.1.0', B) }, 'Revert "ci: overlay osc main build"');
});
afterAll(() => r?.cleanup());

const IMG = (d: string) => `ghcr.io/acme/osc@${d}`;
const LANE: PodSpec[] = [
  { name: 'osc-7d9f8c6b5d-aaaaa', namespace: 'cozy-system', deployment: { name: 'osc', hash: '7d9f8c6b5d' }, containers: [{ name: 'manager', image: 'ghcr.io/acme/osc:v1.1.0', imageID: IMG(B) }] },
  // the same Deployment, one pod still on the old build; docker's form of the imageID
  { name: 'osc-7d9f8c6b5d-bbbbb', namespace: 'cozy-system', deployment: { name: 'osc', hash: '7d9f8c6b5d' }, containers: [{ name: 'manager', image: 'ghcr.io/acme/osc:v1.0.0', imageID: `docker-pullable://${IMG(A)}` }] },
  // pulled from the CI registry (an alias), a main build that was overlaid then reverted
  { name: 'osc-e2e', namespace: 'lane', containers: [{ name: 'manager', image: 'ci.acme.test/builds/osc:main', imageID: `ci.acme.test/builds/osc@${N}` }] },
  { name: 'osc-unknown', namespace: 'lane', containers: [{ name: 'manager', image: 'ghcr.io/acme/osc:dev', imageID: IMG(U) }] },
  { name: 'osc-pending', namespace: 'lane', phase: 'Pending', containers: [{ name: 'manager', image: 'ghcr.io/acme/osc:v1.1.0', waiting: 'ImagePullBackOff' }] },
  {
    name: 'api-0',
    namespace: 'lane',
    initContainers: [{ name: 'migrate', image: 'ghcr.io/acme/api:v1', imageID: `ghcr.io/acme/api@${P}` }],
    containers: [{ name: 'api', image: 'ghcr.io/acme/api:v1', imageID: `ghcr.io/acme/api@${P}` }, { name: 'redis', image: 'redis:7', imageID: `docker.io/library/redis@${DIGEST('f')}` }],
  },
];

function pods(specs: PodSpec[], file = 'pods.json'): PodList {
  const list: PodList = { containers: [], pods: 0, files: [], filesWithoutPods: [] };
  addText(list, podList(specs), file, true);
  return list;
}

const find = (cs: RunningContainer[], pod: string, container: string) => cs.find((x) => x.pod === pod && x.container === container)!;

describe('runningBuilds', () => {
  it('judges every container of a lane against its pin and HEAD', async () => {
    const report = await runningBuilds(r.dir, loadConfig(r.dir), pods(LANE));
    const cs = report.containers;
    expect(cs).toHaveLength(8);
    const pinned = find(cs, 'osc-7d9f8c6b5d-aaaaa', 'manager');
    expect(pinned).toMatchObject({ status: 'as-pinned', runningDigest: B, imageName: 'osc', builtFrom: { commit: c.fixX, method: 'digest-history' } });
    // merged since the pin: fix Y (the merge commit itself is left out)
    expect(pinned.lacks.map((l) => l.commit)).toEqual([c.fixY]);
    expect(pinned.lacks[0]).toMatchObject({ pr: 12, type: 'fix' });
    expect(pinned.lacksVsPin).toEqual([]);

    const old = find(cs, 'osc-7d9f8c6b5d-bbbbb', 'manager');
    expect(old).toMatchObject({ status: 'older', runningDigest: A, builtFrom: { commit: c.initial }, pinned: { digest: B, builtFrom: { commit: c.fixX } } });
    expect(old.lacks.map((l) => l.commit).sort()).toEqual([c.fixX, c.fixY].sort());
    expect(old.lacksVsPin.map((l) => [l.commit, l.pr])).toEqual([[c.fixX, 11]]);
    expect(old.rollout).toBe('Deployment cozy-system/osc runs manager at 2 digests (a half-finished rollout)');
    expect(report.rollouts).toEqual([{ namespace: 'cozy-system', workload: { kind: 'Deployment', name: 'osc' }, container: 'manager', digests: [{ digest: A, pods: ['osc-7d9f8c6b5d-bbbbb'] }, { digest: B, pods: ['osc-7d9f8c6b5d-aaaaa'] }] }]);

    const newer = find(cs, 'osc-e2e', 'manager');
    expect(newer).toMatchObject({ status: 'newer', repository: 'ci.acme.test/builds/osc', canonical: 'ghcr.io/acme/osc', firstParty: true, builtFrom: { commit: c.mergeY } });
    expect(newer.lacks).toEqual([]);

    const unknown = find(cs, 'osc-unknown', 'manager');
    expect(unknown.status).toBe('unknown');
    expect(unknown.reason).toMatch(/build commit is unknown: .*never appears in the history.*run with --registry/);

    const pending = find(cs, 'osc-pending', 'manager');
    expect(pending).toMatchObject({ status: 'unknown', firstParty: true, reason: 'no running image yet: ImagePullBackOff' });
    expect(pending.runningDigest).toBeUndefined();

    expect(find(cs, 'api-0', 'migrate')).toMatchObject({ init: true, status: 'as-pinned', runningDigest: P, lacks: [] });
    expect(find(cs, 'api-0', 'api')).toMatchObject({ init: false, status: 'as-pinned' });
    expect(find(cs, 'api-0', 'redis')).toMatchObject({ firstParty: false, repository: 'docker.io/library/redis', status: 'unknown', reason: expect.stringContaining('third-party') });
  });

  it('reads the history once whatever the number of containers (1 vs 50)', async () => {
    const config = loadConfig(r.dir);
    const one = await runningBuilds(r.dir, config, pods([LANE[1]!]));
    const many: PodSpec[] = Array.from({ length: 50 }, (_, i) => ({
      name: `osc-${i}`,
      namespace: `ns-${i % 5}`,
      containers: [{ name: 'manager', image: 'ghcr.io/acme/osc', imageID: IMG([A, B, N, U][i % 4]!) }],
    }));
    const fifty = await runningBuilds(r.dir, config, pods(many));
    expect(fifty.containers).toHaveLength(50);
    expect(fifty.containers.filter((x) => x.status === 'older')).toHaveLength(13);
    expect(one.gitProcesses).toBeGreaterThan(0);
    expect(fifty.gitProcesses).toBe(one.gitProcesses);
  });
});

describe('pod lists', () => {
  it.each([
    ['a List', podList([LANE[0]!]), 1, 1],
    ['a single Pod (YAML)', 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: x}\nspec:\n  containers: [{name: c, image: "ghcr.io/acme/osc:v1"}]\nstatus:\n  containerStatuses: [{name: c, imageID: "ghcr.io/acme/osc@' + B + '"}]\n', 1, 1],
    ['a multi-document stream', `kind: Pod\nmetadata: {name: p1}\nspec: {containers: [{name: c, image: a}]}\n---\nkind: ConfigMap\nmetadata: {name: x}\n---\nkind: Pod\nmetadata: {name: p2}\nspec: {containers: [{name: c, image: b}], initContainers: [{name: i, image: c}]}\n`, 2, 3],
    ['a List of other kinds', '{"kind":"List","items":[{"kind":"Service","metadata":{"name":"s"}}]}', 0, 0],
  ])('%s', (_, text, podsCount, containers) => {
    const parsed = parsePodsText(text, 'f');
    expect(parsed.pods).toBe(podsCount);
    expect(parsed.containers).toHaveLength(containers);
  });

  it.each([
    ['broken JSON', '{\n  "kind": "List",\n  "items": [\n    {,\n  ]\n}\n', /^f:4: not valid JSON/],
    ['broken YAML', 'kind: Pod\nmetadata:\n  name: [p\n', /^f:\d+: not valid YAML/],
    ['a Pod with no name', 'kind: Pod\nmetadata: {}\nspec: {containers: []}\n', /^f:1: a Pod without metadata.name/],
    ['a Pod whose containers are not a list', 'kind: List\nitems:\n  - kind: Pod\n    metadata: {name: p}\n    spec: {containers: 3}\n', /^f:3: Pod "p" has no spec.containers list/],
  ])('%s is pods-invalid with file:line', (_, text, message) => {
    try {
      parsePodsText(text, 'f');
      expect.unreachable();
    } catch (e) {
      expect((e as { code: string }).code).toBe('pods-invalid');
      expect((e as { describe(): string }).describe()).toMatch(message);
    }
  });
});

describe('pinwatch running (CLI)', () => {
  it('prints the table and evidence, exits 1 for the older pod, reads a folder bundle and lists files with no pods', async () => {
    const bundle = join(r.dir, '..', `${r.dir.split('/').pop()}-bundle`);
    const { mkdirSync, rmSync } = await import('node:fs');
    mkdirSync(join(bundle, 'lane', 'k8s'), { recursive: true });
    try {
      writeFileSync(join(bundle, 'lane', 'k8s', 'pods.json'), podList(LANE));
      writeFileSync(join(bundle, 'lane', 'events.json'), '{"kind":"EventList","items":[]}\n');
      writeFileSync(join(bundle, 'lane', 'junk.yaml'), 'a: [\n');
      const run = await runCli(['--repo', r.dir, 'running', '--pods', bundle]);
      expect(run.err).toBe('');
      expect(run.code).toBe(1);
      expect(run.out).toContain('8 container(s) in 6 pod(s): 7 first-party (3 as-pinned, 1 older, 1 newer, 0 diverged, 2 unknown), 1 third-party; 1 half-finished rollout(s)');
      expect(run.out).toMatch(/cozy-system\/osc-7d9f8c6b5d-bbbbb\/manager: osc runs a build older than the pin's build [0-9a-f]{10}: it lacks 1 commit\(s\) the pinned build has, 2 that HEAD has/);
      expect(run.out).toContain('fix #11 fix(osc): requeue claims (#11)');
      expect(run.out).toMatch(/files with no Pod \(2\): .*events\.json, .*junk\.yaml:\d+: not valid YAML.*\(not read\)/);
      const never = await runCli(['--repo', r.dir, 'running', '--pods', bundle, '--fail-on-running', 'never']);
      expect(never.code).toBe(0);
      const json = await runCli(['--repo', r.dir, '--format', 'json', 'running', '--pods', join(bundle, 'lane', 'k8s', 'pods.json')]);
      const doc = JSON.parse(json.out) as { version: number; summary: Record<string, number>; containers: Record<string, unknown>[] };
      expect(doc.version).toBe(1);
      expect(doc.summary).toMatchObject({ pods: 6, containers: 8, older: 1, newer: 1, asPinned: 3, unknown: 2, rollouts: 1 });
      const older = doc.containers.find((x) => x.status === 'older')!;
      expect(older).toMatchObject({ imageID: `docker-pullable://${IMG(A)}`, runningDigest: A, firstParty: true, pinned: { digest: B, builtFrom: { commit: c.fixX } } });
    } finally {
      rmSync(bundle, { recursive: true, force: true });
    }
  });

  it('is exit 2 with file:line on a bad pod list, and names the missing flag', async () => {
    const bad = join(r.dir, '..', `${r.dir.split('/').pop()}-bad.json`);
    writeFileSync(bad, '{\n  "kind": "List",\n  "items": [\n    {,\n  ]\n}\n');
    const run = await runCli(['--repo', r.dir, 'running', '--pods', bad]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/pinwatch: \[pods-invalid\] .*-bad\.json:4: not valid JSON/);
    const none = await runCli(['--repo', r.dir, 'running']);
    expect(none.code).toBe(2);
    expect(none.err).toContain('[missing-option] running needs a pod list: --pods FILE|DIR|-');
    const both = await runCli(['--repo', r.dir, 'running', '--pods', bad, '--kubectl']);
    expect(both.err).toContain('[conflicting-options]');
    const policy = await runCli(['--repo', r.dir, 'running', '--pods', bad, '--fail-on-running', 'all']);
    expect(policy.err).toContain('[invalid-fail-on-running]');
  });
});

describe('pinwatch running --kubectl and --pods -', () => {
  it('runs kubectl get pods -o json with the context and namespace flags (a fake kubectl on PATH prints the fixture)', async () => {
    const { mkdtempSync, chmodSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const bin = mkdtempSync(join(tmpdir(), 'pinwatch-kubectl-'));
    try {
      writeFileSync(join(bin, 'pods.json'), podList(LANE.slice(0, 2)));
      writeFileSync(join(bin, 'kubectl'), `#!/bin/sh\necho "$@" > "${bin}/args"\nif [ "$5" = "--context" ] && [ "$6" = "missing" ]; then echo 'error: context "missing" does not exist' >&2; exit 1; fi\ncat "${bin}/pods.json"\n`);
      chmodSync(join(bin, 'kubectl'), 0o755);
      const env = { PATH: `${bin}:${process.env.PATH ?? ''}` };
      const run = await runCli(['--repo', r.dir, '--format', 'json', 'running', '--kubectl', '--context', 'kind-lane', '-n', 'cozy-system'], { env });
      expect(run.err).toBe('');
      expect(readFileSync(join(bin, 'args'), 'utf8').trim()).toBe('get pods -o json --context kind-lane --namespace cozy-system');
      const doc = JSON.parse(run.out) as { summary: Record<string, number>; files: string[] };
      expect(doc.summary).toMatchObject({ pods: 2, older: 1, asPinned: 1, rollouts: 1 });
      expect(doc.files).toEqual(['kubectl get pods -o json --context kind-lane --namespace cozy-system']);
      expect(run.code).toBe(1);
      await runCli(['--repo', r.dir, 'running', '--kubectl', '-A'], { env });
      expect(readFileSync(join(bin, 'args'), 'utf8').trim()).toBe('get pods -o json --all-namespaces');
      const failed = await runCli(['--repo', r.dir, 'running', '--kubectl', '--context', 'missing'], { env });
      expect(failed.code).toBe(2);
      expect(failed.err).toContain('[kubectl-failed] kubectl get pods -o json --context missing exited 1: error: context "missing" does not exist');
      const absent = await runCli(['--repo', r.dir, 'running', '--kubectl'], { env: { PATH: bin.replace(/kubectl-.*/, 'nowhere') } });
      expect(absent.err).toMatch(/\[kubectl-failed\] .*could not run.*is kubectl on PATH/);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('reads the pod list from stdin with --pods -', async () => {
    const { captureIo } = await import('../support/io.js');
    const { main } = await import('../../src/cli/main.js');
    const io = { ...captureIo({}), readStdin: async () => podList([LANE[0]!]) };
    const code = await main(['--repo', r.dir, 'running', '--pods', '-'], io);
    expect(io.stderr.join('')).toBe('');
    // as pinned, but the pinned build lacks a merged fix: the default policy fails it
    expect(code).toBe(1);
    expect(io.stdout.join('')).toContain('1 container(s) in 1 pod(s): 1 first-party (1 as-pinned');
  });
});

describe('pinwatch running --format markdown and github', () => {
  it('markdown leads with the components that ran older than the tree; github annotates each drifting container at its pin', async () => {
    const file = join(r.dir, '..', `${r.dir.split('/').pop()}-md.json`);
    writeFileSync(file, podList(LANE));
    const md = await runCli(['--repo', r.dir, '--format', 'markdown', 'running', '--pods', file]);
    expect(md.code).toBe(1);
    expect(md.out).toMatch(/^## pinwatch running\n/);
    expect(md.out).toMatch(/\*\*These components ran older than the tree\*\* \(HEAD `[0-9a-f]{10}`\):\n\n- `cozy-system\/osc-7d9f8c6b5d-bbbbb\/manager`: osc runs a build older than/);
    expect(md.out).toContain('Lacks (the pinned build has these):');
    const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-summary-'));
    try {
      const summary = join(dir, 'summary.md');
      writeFileSync(summary, '');
      const gh = await runCli(['--repo', r.dir, '--format', 'github', 'running', '--pods', file], { env: { GITHUB_STEP_SUMMARY: summary } });
      expect(gh.code).toBe(1);
      expect(gh.out).toMatch(/^::error title=pinwatch running%3A cozy-system\/osc-7d9f8c6b5d-bbbbb\/manager older,file=charts\/osc\/values.yaml,line=2::osc runs a build older than/m);
      expect(gh.out).toMatch(/^::notice title=pinwatch running%3A lane\/osc-pending\/manager unknown::osc: unknown: no running image yet: ImagePullBackOff$/m);
      expect(gh.out.trimEnd().split('\n').pop()).toBe('8 container(s) in 6 pod(s): 7 first-party (3 as-pinned, 1 older, 1 newer, 0 diverged, 2 unknown), 1 third-party; 1 half-finished rollout(s)');
      expect(readFileSync(summary, 'utf8')).toContain('## pinwatch running');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(file, { force: true });
    }
  });
});

describe('lacks leave cherry-picks out', () => {
  it('a fix cherry-picked onto the release branch the running build came from is not lacked', async () => {
    const r3 = makeRepo('pinwatch-running-cp-');
    try {
      r3.commit({ 'pinwatch.yaml': CONFIG, 'src/osc/main.go': 'a\nb\nc\n' }, 'initial');
      r3.git('checkout', '-q', '-b', 'release-1.0');
      r3.git('checkout', '-q', 'main');
      const fix = r3.commit({ 'src/osc/main.go': 'a\nb\nc\nfixed\n' }, 'fix(osc): the fix (#21)');
      r3.git('checkout', '-q', 'release-1.0');
      r3.commit({ 'docs/release.md': 'notes\n' }, 'docs: release notes');
      r3.git('cherry-pick', fix);
      const picked = r3.git('rev-parse', 'HEAD');
      // the release is built and pinned on its branch, then the branch is merged back
      r3.commit({ 'charts/osc/values.yaml': osc('v1.0.1', A) }, 'Prepare release v1.0.1');
      r3.git('checkout', '-q', 'main');
      r3.git('merge', '-q', '--no-ff', '-m', 'Merge branch release-1.0', 'release-1.0');
      const report = await runningBuilds(r3.dir, loadConfig(r3.dir), pods([{ name: 'osc', containers: [{ name: 'm', image: 'ghcr.io/acme/osc', imageID: IMG(A) }] }]));
      const x = report.containers[0]!;
      expect(x.status).toBe('as-pinned');
      expect(x.builtFrom?.commit).toBe(picked);
      // HEAD has the original fix, which the build's history lacks by sha but has by patch
      expect(picked).not.toBe(fix);
      expect(r3.git('merge-base', picked, fix)).not.toBe(fix);
      expect(x.lacks).toEqual([]);
    } finally {
      r3.cleanup();
    }
  });
});

describe('a shallow clone', () => {
  it('is exit 2 when the boundary leaves a first-party container unjudged, with how to deepen', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { execFileSync } = await import('node:child_process');
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-running-shallow-'));
    try {
      execFileSync('git', ['clone', '-q', '--depth', '1', `file://${r.dir}`, join(dir, 'c')]);
      const file = join(dir, 'pods.json');
      writeFileSync(file, podList([LANE[1]!]));
      const run = await runCli(['--repo', join(dir, 'c'), 'running', '--pods', file]);
      expect(run.code).toBe(2);
      expect(run.err).toContain('pinwatch: [shallow-clone] a first-party container could not be judged in this shallow clone');
      expect(run.out).toContain('warning: the clone is shallow');
      const never = await runCli(['--repo', join(dir, 'c'), '--fail-on', 'never', 'running', '--pods', file]);
      expect(never.code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
