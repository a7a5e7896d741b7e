/**
 * The collectors over the real cozystack tree at 3c780acd4 (../shared/fixtures),
 * checked against the fixture README's hand-checked counts.
 */
import { describe, expect, it } from 'vitest';
import { spanMismatches } from '../support/span-check.js';
import { collectCozystack, MULTUS_FILE } from '../support/cozystack.js';

describe('cozystack 3c780acd4', () => {
  const tree = collectCozystack();
  const pins = tree.pins;
  const firstParty = pins.filter((p) => p.firstParty);
  const thirdParty = pins.filter((p) => !p.firstParty);

  it('reads every file structurally (no scrape fallback) and every span is exact', () => {
    expect(tree.files.filter((f) => f.kind === 'yaml').length).toBeGreaterThan(100);
    expect(tree.scraped).toEqual([]);
    for (const file of tree.files) {
      expect(spanMismatches(file.text, pins.filter((p) => p.file === file.path)), file.path).toEqual([]);
    }
  });

  it('finds every one of the 34 @sha256: lines in values files', () => {
    const lines = tree.files
      .filter((f) => f.kind === 'yaml')
      .flatMap((f) => f.text.split('\n').flatMap((line, i) => (line.includes('@sha256:') ? [{ file: f.path, line: i + 1 }] : [])));
    expect(lines).toHaveLength(34);
    for (const { file, line } of lines) {
      const digestPin = pins.find((p) => p.file === file && p.ref.digest !== undefined && p.spans.some((s) => s.field !== 'registry' && lineOf(tree, file, s.start) === line));
      expect(digestPin, `${file}:${line}`).toBeDefined();
    }
  });

  it('reads the 18 tag files and the 3 multus refs', () => {
    const tagPins = pins.filter((p) => p.shape === 'tag-file');
    expect(tree.files.filter((f) => f.kind === 'tag')).toHaveLength(18);
    expect(tagPins).toHaveLength(18);
    const multus = pins.filter((p) => p.file === MULTUS_FILE);
    expect(multus.map((p) => `${p.shape} ${p.line} ${p.form}`)).toEqual(['text 159 tag+digest', 'text 226 tag+digest', 'text 252 tag+digest']);
  });

  it('has 48 first-party refs: 45 tag+digest, 2 latest@sha256, 1 digest-only OCI pair', () => {
    expect(firstParty).toHaveLength(48);
    const forms = count(firstParty.map((p) => p.form));
    expect(forms).toEqual({ 'tag+digest': 45, latest: 2, digest: 1 });
    expect(firstParty.filter((p) => p.form === 'latest').every((p) => p.ref.digest !== undefined)).toBe(true);
    const oci = firstParty.find((p) => p.form === 'digest')!;
    expect(oci).toMatchObject({ shape: 'yaml-oci', keyPath: 'cozystackOperator.platformSourceUrl', file: 'packages/core/installer/values.yaml' });
  });

  it('has 24 third-party refs', () => {
    expect(thirdParty).toHaveLength(24);
    // The kuberture image stores only tag@digest; the chart supplies the repository.
    expect(thirdParty.filter((p) => p.incomplete !== undefined).map((p) => p.file)).toEqual(['packages/system/kuberture/values.yaml']);
  });

  it('covers every storage shape present in the tree', () => {
    expect(Object.keys(count(pins.map((p) => p.shape))).sort()).toEqual(['tag-file', 'text', 'yaml-arg', 'yaml-global', 'yaml-oci', 'yaml-split', 'yaml-string']);
    const at = (file: string, keyPath: string) => pins.find((p) => p.file === `packages/system/${file}/values.yaml` && p.keyPath === keyPath);
    expect(at('kamaji', 'kamaji.extraArgs[0]')?.shape).toBe('yaml-arg');
    expect(at('kubeovn', 'global.images.kubeovn')?.raw).toMatch(/^ghcr\.io\/cozystack\/cozystack\/kubeovn:v1\.15\.10@sha256:/);
    expect(at('ingress-nginx', 'ingress-nginx.controller.image')?.spans.map((s) => s.field)).toEqual(['registry', 'repository', 'tag', 'digest']);
    expect(at('keycloak-operator', 'keycloak-operator.image')?.form).toBe('latest');
    expect(at('kilo', 'kilo.image')?.spans.map((s) => s.field)).toEqual(['tag', 'digest', 'repository']);
  });

  it('finds *Image-suffixed keys (backupstrategy-controller)', () => {
    const backup = pins.filter((p) => p.file === 'packages/system/backupstrategy-controller/values.yaml');
    expect(backup.map((p) => `${p.keyPath} ${p.form}`)).toEqual(['backupStrategyController.image tag+digest', 'backupStrategyController.chBackupClientImage tag+digest']);
    // redisBackupClientImage (bare tag) and migrationController.image (:latest) from the seed postdate this
    // commit; the YAML collector's own fixtures cover both forms.
  });

  it('makes no refs out of ordinary config values', () => {
    const inFile = (pkg: string) => pins.filter((p) => p.file.includes(`/${pkg}/`));
    expect(inFile('vm-default-images')).toEqual([]); // image URLs (https://…img)
    expect(inFile('monitoring-agents')).toEqual([]); // `image: [ spec, image ]`, image.toolkit.fluxcd.io
    expect(inFile('foundationdb')).toEqual([]); // imageType: "split"
    expect(pins.filter((p) => p.ref.name.endsWith('/hostname') || p.ref.name === 'docker.io/library/vgpu-manager')).toEqual([]);
    expect(pins.filter((p) => p.shape === 'yaml-string' && !/image$/i.test(p.keyPath ?? ''))).toEqual([]);
  });

  it('reports the incomplete vgpuManager split map as a problem, and nothing else', () => {
    expect(tree.problems.map((p) => `${p.code} ${p.file}:${p.line}`)).toEqual(['incomplete-ref packages/core/platform/values.yaml:667']);
  });
});

function count(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

function lineOf(tree: ReturnType<typeof collectCozystack>, file: string, offset: number): number {
  const text = tree.files.find((f) => f.path === file)!.text;
  return text.slice(0, offset).split('\n').length;
}
