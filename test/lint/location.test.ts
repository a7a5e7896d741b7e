/**
 * A tree's lint findings (their text and fingerprints) do not depend on where
 * the tree is checked out: PR mode compares the work tree's findings with those
 * of the base's tree written to a temp folder, and a baseline written on one
 * machine is read on another. A recipe that leaves the repository (`cd /tmp/x`,
 * `make -C ../y`) is named as spelled from `/` or from the root.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';

// each line a shape seen on real repositories (cozystack, argo-cd, ingress-nginx) whose findings followed the checkout's path
const TREE: Record<string, string> = {
  'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\n',
  'charts/app/values.yaml': 'image: ghcr.io/acme/app:v1\n',
  Makefile: [
    'DIR = $(shell dirname $(realpath $(lastword $(MAKEFILE_LIST))))',
    'BASE ?= $(shell cat $(DIR)/../BASE_IMAGE_VERSION_FILE_WITH_A_LONG_NAME)',
    'build:',
    '\tcd /tmp/pinwatch-nowhere-e2e && $(MAKE) -C packages/testing install',
    '\t$(MAKE) -C ../pinwatch-sibling image',
    '\tdocker build -t ghcr.io/acme/app:v1 --build-arg BASE=$(BASE) $(NAME)/rootfs',
    '\tdocker build -t ghcr.io/acme/app:v1 -f ../pinwatch-sibling/Dockerfile .',
    '\tdocker build -t ghcr.io/acme/app:v1 --build-arg V=$(shell cat ../pinwatch-sibling/VERSION) --build-arg W=$(shell cat /etc/pinwatch-version) .',
    '',
  ].join('\n'),
  'cloudbuild.yaml': ['steps:', '  - name: gcr.io/cloud-builders/docker', '    dir: /pinwatch-elsewhere', '    args: [build, -t, ghcr.io/acme/app:v1, .]', ''].join('\n'),
  '.github/workflows/e2e.yaml': [
    'on: push',
    'jobs:',
    '  e2e:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - run: make -C hack lint V=1',
    '        working-directory: /home/runner/go/src/example.test/app',
    '',
  ].join('\n'),
};

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function plant(depth: number): string {
  const top = mkdtempSync(join(tmpdir(), 'pinwatch-where-'));
  made.push(top);
  const root = join(top, ...Array.from({ length: depth }, (_, i) => `d${i}`), 'repo');
  for (const [file, text] of Object.entries(TREE)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

describe("lint's findings do not depend on where the tree sits", () => {
  it('the same tree at two depths: the same findings, fingerprints and texts', async () => {
    const findings = async (root: string) => {
      const r = await runCli(['--repo', root, 'lint', '--format', 'json', '--no-cache']);
      return (JSON.parse(r.out) as { findings: { rule: string; fingerprint: string; message: string }[] }).findings.map((f) => [f.rule, f.fingerprint, f.message]);
    };
    const [near, deep] = [await findings(plant(0)), await findings(plant(4))];
    expect(deep).toEqual(near);
    const texts = near.map(([, , m]) => m);
    expect(texts).toContain('build-makefile-missing: sub-make runs in "/tmp/pinwatch-nowhere-e2e/packages/testing" but no Makefile is there');
    expect(texts).toContain('build-makefile-missing: sub-make runs in "../pinwatch-sibling" but no Makefile is there');
    expect(texts).toContain('followed-make-assumed: sub-make runs in "/home/runner/go/src/example.test/app/hack" but no Makefile is there; this make call is not followed (assumed to build no image of this tree)');
    expect(texts).toContain('recipe-dockerfile-missing: Dockerfile "/rootfs/Dockerfile" of this build does not exist');
    expect(texts).toContain('recipe-dockerfile-missing: Dockerfile "../pinwatch-sibling/Dockerfile" of this build does not exist');
    expect(texts).toContain('recipe-dockerfile-missing: Dockerfile "/pinwatch-elsewhere/Dockerfile" of this build does not exist');
    expect(texts).toContain('recipe-arg-file-outside-repo: build arg V reads "../pinwatch-sibling/VERSION", which is outside the repository, so it is no input');
    expect(texts).toContain('recipe-arg-file-outside-repo: build arg W reads "/etc/pinwatch-version", which is outside the repository, so it is no input');
    // a file named by an unknown value (a marker inside the command, or one cut short) is no input and no finding
    expect(texts.filter((t) => t.startsWith('recipe-arg-file-missing'))).toEqual([]);
  });
});
