/**
 * Declared producers that name the image and the files they write (issue 11):
 * `writes: [{file: glob, image}]` covers only that image's pins in the matching
 * files, a whole-file write covers the first-party pins only (each repository
 * its own lockstep group), and explain names the pinwatch.yaml line where the
 * producer is declared. On a real git repository shaped like a rendered
 * install bundle (argo-cd's manifests/).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { runCli } from '../support/io.js';

const D = 'sha256:0a92e861ead179dd6b46f475fd8878d44b3cfa40ce4d7a8ff92f790d54250d25';
const container = (image: string) => `      - name: c\n        image: ${image}\n`;
const deployment = (name: string, ...images: string[]) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  template:\n    spec:\n      containers:\n${images.map(container).join('')}`;

const repos: TestRepo[] = [];
afterAll(() => repos.forEach((r) => r.cleanup()));

function bundle(config: string): TestRepo {
  const r = makeRepo();
  repos.push(r);
  r.commit(
    {
      'pinwatch.yaml': config,
      'manifests/install.yaml': [deployment('server', `quay.io/argoproj/argocd:v2.9.0@${D}`), deployment('redis', 'redis:7.0.11-alpine'), deployment('dex', 'ghcr.io/dexidp/dex:v2.37.0')].join('---\n'),
      'manifests/namespace-install.yaml': [deployment('server', `quay.io/argoproj/argocd:v2.9.0@${D}`), deployment('redis', 'redis:7.0.15-alpine')].join('---\n'),
      'manifests/ha/install.yaml': [deployment('server', `quay.io/argoproj/argocd:v2.8.0@${D}`), deployment('applicationset', `quay.io/argoproj/argocd-applicationset:v0.4.1@${D}`)].join('---\n'),
    },
    'manifests',
  );
  return r;
}

const HEADER = 'firstParty: [quay.io/argoproj/]\ninclude: ["manifests/**/*.yaml"]\nprovenance: [digest-history]\n';

async function lint(dir: string) {
  const r = await runCli(['--repo', dir, '--format', 'json', 'lint']);
  if (r.code === 2) throw new Error(r.err);
  return (JSON.parse(r.out) as { findings: { rule: string; file?: string; pin?: { keyPath?: string; ref?: string }; message: string }[] }).findings;
}

describe('declared producers with images and globs', () => {
  it('a {file: glob, image} write stamps only that image: no lockstep across third-party refs', async () => {
    const r = bundle(`${HEADER}producers:\n  - name: hack/update-manifests.sh\n    writes:\n      - { file: "manifests/**/*install.yaml", image: quay.io/argoproj/argocd }\n`);
    const findings = await lint(r.dir);
    const lockstep = findings.filter((f) => f.rule === 'lockstep-mismatch').map((f) => `${f.file}#${f.pin?.keyPath}`);
    // the one real disagreement: ha/install.yaml (the first file, so the leader) ships argocd v2.8.0, the others v2.9.0;
    // redis 7.0.11 vs 7.0.15 and dex are not the script's to write, so they are no finding
    expect(lockstep).toEqual(['manifests/install.yaml#[0].spec.template.spec.containers[0].image', 'manifests/namespace-install.yaml#[0].spec.template.spec.containers[0].image']);
    // argocd-applicationset is first-party and written by nobody
    expect(findings.filter((f) => f.rule === 'no-producer').map((f) => f.file)).toEqual(['manifests/ha/install.yaml']);
    expect(findings.filter((f) => f.rule === 'write-without-pin')).toEqual([]);
  });

  it('a whole-file write covers first-party pins only, each repository in its own lockstep group', async () => {
    const r = bundle(`${HEADER}producers:\n  - name: hack/update-manifests.sh\n    writes: [manifests/install.yaml, manifests/namespace-install.yaml, manifests/ha/install.yaml]\n`);
    const findings = await lint(r.dir);
    expect(findings.filter((f) => f.rule === 'lockstep-mismatch').map((f) => `${f.file}#${f.pin?.keyPath}`)).toEqual(['manifests/ha/install.yaml#[0].spec.template.spec.containers[0].image']);
    expect(findings.filter((f) => f.rule === 'no-producer')).toEqual([]);
  });

  it('an image no pin in the files has is a write-without-pin finding at the pinwatch.yaml line', async () => {
    const r = bundle(`${HEADER}producers:\n  - name: hack/update-manifests.sh\n    writes:\n      - { file: "manifests/*.yaml", image: quay.io/argoproj/argo-cd }\n`);
    const findings = await lint(r.dir);
    const w = findings.filter((f) => f.rule === 'write-without-pin');
    expect(w.map((f) => `${f.file} ${f.message}`)).toEqual([
      'pinwatch.yaml hack/update-manifests.sh writes quay.io/argoproj/argo-cd to manifests/*.yaml, but no pin of that image is there: the image name or the file is wrong',
    ]);
  });

  it('explain names the pinwatch.yaml line where the producer is declared (not :0)', async () => {
    const r = bundle(`${HEADER}producers:\n  - name: hack/update-manifests.sh\n    writes:\n      - { file: "manifests/**/*install.yaml", image: quay.io/argoproj/argocd }\n`);
    const out = await runCli(['--repo', r.dir, 'explain', 'quay.io/argoproj/argocd']);
    expect(out.out).toContain('producer: hack/update-manifests.sh (declared at pinwatch.yaml:5)');
    expect(out.out).not.toContain('pinwatch.yaml:0');
  });
});
