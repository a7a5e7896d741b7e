/**
 * Real-world shapes: lint the cozystack ref-bearing files at 3c780acd4 (shared
 * fixture; values + .tag + the multus manifest, no Makefiles). Counts are the
 * fixture README's hand-checked ones.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sarifValidator } from '../support/sarif.js';
import { requireCozystackFixture } from '../support/cozystack.js';
import { runCli } from '../support/io.js';

const FIXTURE = requireCozystackFixture();
const tmp = mkdtempSync(join(tmpdir(), 'pinwatch-lint-cozy-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const CONFIG = join(tmp, 'pinwatch.yaml');
writeFileSync(
  CONFIG,
  [
    'firstParty: [ghcr.io/cozystack/cozystack/]',
    'include: ["packages/**/values.yaml", "packages/**/images/*.tag"]',
    'extraFiles: [packages/system/multus/templates/multus-daemonset-thick.yml]',
    '',
  ].join('\n'),
);

describe.skipIf(!existsSync(FIXTURE))('lint on the cozystack fixture', () => {
  it('finds the two latest@sha256 pins, the incomplete vgpuManager ref, and no producers (no Makefiles)', async () => {
    const r = await runCli(['--repo', FIXTURE, '--config', CONFIG, '--format', 'json', 'lint', '--no-baseline']);
    expect(r.code).toBe(1);
    const { findings } = JSON.parse(r.out) as { findings: { rule: string; file?: string; line?: number }[] };
    const count = (rule: string) => findings.filter((f) => f.rule === rule).length;
    expect(count('no-producer')).toBe(48); // every first-party ref: the fixture has no build recipes
    expect(findings.filter((f) => f.rule === 'floating-tag').map((f) => f.file)).toEqual([
      'packages/system/flux-plunger/values.yaml',
      'packages/system/keycloak-operator/values.yaml',
    ]);
    expect(count('first-party-missing-digest')).toBe(0);
    expect(count('repository-multiple-digests')).toBe(0);
    expect(count('unparsed-file')).toBe(0); // multus is declared, so its scrape is by design
    expect(findings.filter((f) => f.rule === 'invalid-ref').map((f) => `${f.file}:${f.line}`)).toEqual(['packages/core/platform/values.yaml:667']);
    // no Makefile and the default buildEntry: nothing to walk, so no build-entry-missing (issue 10)
    expect(findings.filter((f) => f.rule === 'build-recipe-problem').map((f) => f.file)).toEqual([]);
  });

  it('without the extraFiles declaration the multus scrape is an unparsed-file finding', async () => {
    const undeclared = join(tmp, 'undeclared.yaml');
    writeFileSync(undeclared, 'firstParty: [ghcr.io/cozystack/cozystack/]\ninclude: ["packages/**/values.yaml", "packages/system/multus/templates/*.yml"]\n');
    const r = await runCli(['--repo', FIXTURE, '--config', undeclared, '--format', 'json', 'lint', '--no-baseline']);
    const { findings } = JSON.parse(r.out) as { findings: { rule: string; file?: string }[] };
    expect(findings.filter((f) => f.rule === 'unparsed-file').map((f) => f.file)).toEqual(['packages/system/multus/templates/multus-daemonset-thick.yml']);
  });

  it('its SARIF validates against the SARIF 2.1.0 schema', async () => {
    const r = await runCli(['--repo', FIXTURE, '--config', CONFIG, '--format', 'sarif', 'lint', '--no-baseline']);
    const validate = sarifValidator();
    const ok = validate(JSON.parse(r.out));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });
});
