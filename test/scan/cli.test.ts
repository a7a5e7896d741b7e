import { Ajv } from 'ajv';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScanJson } from '../../src/report/scan-json.js';
import { runCli, SHA, treesRemovedAfterEach, type Tree } from '../support/tree.js';

const schema = JSON.parse(readFileSync(new URL('../../schemas/scan-output.schema.json', import.meta.url), 'utf8'));
const validateOutput = new Ajv({ strict: true, allErrors: true }).compile(schema);

const tree = treesRemovedAfterEach();

async function scanJson(dir: string, ...extra: string[]): Promise<ScanJson> {
  const r = await runCli(['scan', '--repo', dir, '--format', 'json', ...extra], dir);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  const json = JSON.parse(r.out) as ScanJson;
  expect(validateOutput(json), JSON.stringify(validateOutput.errors)).toBe(true);
  return json;
}

describe('pinwatch scan: config and usage errors exit 2 with file:line', () => {
  it('unknown key', async () => {
    const t = tree({ 'pinwatch.yaml': 'include: ["**/values.yaml"]\nfirstparty: [ghcr.io/acme/]\n' });
    const r = await runCli(['scan', '--repo', t.dir], t.dir);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe('pinwatch: [config-invalid] pinwatch.yaml:2: unknown key "firstparty"; did you mean "firstParty"?\n');
  });

  it('config YAML that does not parse', async () => {
    const t = tree({ 'ci/pw.yaml': 'firstParty:\n  - ghcr.io/acme/\n include: [\n' });
    const r = await runCli(['scan', '--repo', t.dir, '--config', 'ci/pw.yaml'], t.dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^pinwatch: \[config-invalid\] ci\/pw.yaml:3: not valid YAML/);
  });

  it('a --config file that does not exist', async () => {
    const t = tree({});
    const r = await runCli(['scan', '--repo', t.dir, '--config', 'missing.yaml'], t.dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/config file ".*missing.yaml" does not exist/);
  });

  it('an unsupported --format', async () => {
    const t = tree({});
    const r = await runCli(['scan', '--repo', t.dir, '--format', 'sarif'], t.dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--format must be one of text, json for this command; saw "sarif"/);
  });

  it('a bad --first-party prefix', async () => {
    const t = tree({});
    const r = await runCli(['scan', '--repo', t.dir, '--first-party', 'acme'], t.dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--first-party: "acme" does not start with a registry host/);
  });

  it('a --repo that is not a directory', async () => {
    const t = tree({});
    const r = await runCli(['scan', '--repo', join(t.dir, 'nope')], t.dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/is not a directory; expected --repo DIR/);
  });
});

describe('pinwatch scan: bad input is reported and the rest is still scanned', () => {
  const good = `# the billing service
billing:
  image: ghcr.io/acme/billing:v1.2.0@${SHA('a')}
  sidecar:
    repository: nginx
    tag: "1.25"
`;
  function badTree(): Tree {
    const outside = tree({ 'values.yaml': 'image: ghcr.io/evil/x:v1\n' });
    return tree({
      'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\n',
      'apps/good/values.yaml': good,
      'apps/binary/values.yaml': new Uint8Array([0x69, 0x6d, 0x0a, 0x00, 0x01, 0x02]),
      'apps/latin1/values.yaml': new Uint8Array([...Buffer.from('# caf'), 0xe9, 0x0a, ...Buffer.from('image: ghcr.io/acme/l:v1\n')]),
      'apps/escape/values.yaml': { symlink: join(outside.dir, 'values.yaml') },
      'apps/broken/values.yaml': `gateway:\n  image: ghcr.io/acme/gateway:v2@${SHA('b')}\n  extra: a: b\n`,
      'apps/longdigest/values.yaml': `one: ghcr.io/acme/ok:v1@${SHA('c')}\nimage: ghcr.io/acme/long:v1@${SHA('d', 65)}\n`,
      'apps/tagged/images/worker.tag': `ghcr.io/acme/worker:v3@${SHA('e')}\n`,
    });
  }

  it('lists every pin it could read, and every file it could not, with reasons (json)', async () => {
    const t = badTree();
    const json = await scanJson(t.dir);
    const pinKeys = json.pins.map((p) => `${p.file}:${p.line} ${p.repository} ${p.form}${p.scraped ? ' scraped' : ''}`);
    expect(pinKeys).toEqual(
      expect.arrayContaining([
        'apps/good/values.yaml:3 ghcr.io/acme/billing tag+digest',
        'apps/good/values.yaml:5 docker.io/library/nginx tag',
        'apps/broken/values.yaml:2 ghcr.io/acme/gateway tag+digest scraped',
        'apps/latin1/values.yaml:2 ghcr.io/acme/l tag scraped',
        'apps/longdigest/values.yaml:1 ghcr.io/acme/ok tag+digest',
        'apps/tagged/images/worker.tag:1 ghcr.io/acme/worker tag+digest',
      ]),
    );
    expect(pinKeys.some((k) => k.includes('ghcr.io/acme/long'))).toBe(false);
    expect(pinKeys.some((k) => k.includes('ghcr.io/evil'))).toBe(false);
    const billing = json.pins.find((p) => p.repository === 'ghcr.io/acme/billing')!;
    expect(billing).toMatchObject({ keyPath: 'billing.image', shape: 'yaml-string', registry: 'ghcr.io', tag: 'v1.2.0', digest: SHA('a'), firstParty: true, scraped: false });
    expect(billing.ref).toBe(`ghcr.io/acme/billing:v1.2.0@${SHA('a')}`);
    const nginx = json.pins.find((p) => p.repository === 'docker.io/library/nginx')!;
    expect(nginx).toMatchObject({ ref: 'docker.io/library/nginx:1.25', firstParty: false, digest: null });

    const skipped = Object.fromEntries(json.skipped.map((s) => [s.file, s]));
    expect(skipped['apps/binary/values.yaml']).toMatchObject({ code: 'binary-file', scraped: false, line: 2 });
    expect(skipped['apps/latin1/values.yaml']).toMatchObject({ code: 'not-utf8', line: 1, scraped: true });
    expect(skipped['apps/latin1/values.yaml']!.reason).toMatch(/byte 0xe9 at offset 5/);
    expect(skipped['apps/escape/values.yaml']).toMatchObject({ code: 'symlink-outside-repo', scraped: false });
    expect(skipped['apps/broken/values.yaml']).toMatchObject({ scraped: true, line: 3 });
    expect(json.skipped).toHaveLength(4);

    const long = json.problems.find((p) => p.file === 'apps/longdigest/values.yaml');
    expect(long).toMatchObject({ line: 2 });
    expect(long!.reason).toMatch(/64 lowercase hex.*found 65/);
    expect(json.summary).toMatchObject({ filesScanned: 5, skipped: 4 });
    expect(json.config).toMatchObject({ file: 'pinwatch.yaml', firstParty: ['ghcr.io/acme/'] });
  });

  it('says the same in text, grouped by repository with first-party first', async () => {
    const t = badTree();
    const r = await runCli(['scan', '--repo', t.dir], t.dir);
    expect(r.code).toBe(0);
    const out = r.out;
    expect(out).toMatch(/^\d+ pins \(\d+ first-party, 1 third-party\) in 5 files scanned; 4 skipped, 1 problem\n/);
    expect(out.indexOf('ghcr.io/acme/billing  (first-party, 1 pin)')).toBeGreaterThan(0);
    expect(out.indexOf('docker.io/library/nginx  (third-party, 1 pin)')).toBeGreaterThan(out.indexOf('ghcr.io/acme/worker'));
    expect(out).toMatch(/apps\/good\/values.yaml:3 +billing.image +yaml-string +tag\+digest +:v1.2.0@sha256:aaaaaaaaaaaa…/);
    expect(out).toMatch(/apps\/binary\/values.yaml:2 {2}binary-file: a NUL byte/);
    expect(out).toMatch(/apps\/escape\/values.yaml {2}symlink-outside-repo: a symlink to ".*", outside the repository; not followed/);
    expect(out).toMatch(/apps\/broken\/values.yaml:3 {2}\S+ \(scraped\): /);
    expect(out).toMatch(/apps\/latin1\/values.yaml:1 {2}not-utf8 \(scraped\): not valid UTF-8 \(byte 0xe9 at offset 5\); read as Latin-1/);
    expect(out).toMatch(/Problems \(1\):\n {2}apps\/longdigest\/values.yaml:2:\d+ {2}\S+: /);
    expect(out).toMatch(/Config: pinwatch.yaml\n/);
  });

  it('reports a split map without a repository as an incomplete pin, with null repository and ref', async () => {
    const t = tree({ 'values.yaml': `app:\n  image:\n    tag: v1@${SHA('9')}\n` });
    const json = await scanJson(t.dir);
    expect(json.pins).toHaveLength(1);
    expect(json.pins[0]).toMatchObject({ keyPath: 'app.image', repository: null, registry: null, ref: null, tag: 'v1', digest: SHA('9'), form: 'tag+digest' });
    expect(json.pins[0]!.incomplete).toEqual(expect.any(String));
    const text = await runCli(['scan', '--repo', t.dir], t.dir);
    expect(text.out).toMatch(/\(repository not stored in the file\) {2}\(incomplete, 1 pin\)\n {2}values.yaml:3 +app.image/);
  });

  it('is deterministic, and --output writes the same report to a file', async () => {
    const t = badTree();
    const a = await runCli(['scan', '--repo', t.dir, '--format', 'json'], t.dir);
    const b = await runCli(['--format', 'json', '--output', 'scan.json', 'scan', '--repo', t.dir], t.dir);
    expect(b.out).toBe('');
    expect(readFileSync(join(t.dir, 'scan.json'), 'utf8')).toBe(a.out);
  });
});

describe('pinwatch scan: what the defaults and the config leave out is counted', () => {
  const ref = (name: string) => `image: ghcr.io/acme/${name}:v1@${SHA('f')}\n`;

  it('leaves out vendored dependency charts but keeps a top-level charts/ folder', async () => {
    const t = tree({
      'charts/app/Chart.yaml': 'name: app\n',
      'charts/app/values.yaml': ref('app'),
      'charts/app/charts/redis/Chart.yaml': 'name: redis\n',
      'charts/app/charts/redis/values.yaml': 'image: docker.io/bitnami/redis:7\n',
      'charts/app/charts/pg/values.yaml': 'image: docker.io/bitnami/postgresql:16\n',
      'charts/app/charts/own/values.yaml': ref('own-subchart'),
      'charts/app/templates/deployment.yaml': 'image: {{ .Values.image }}\n',
    });
    const json = await scanJson(t.dir, '--first-party', 'ghcr.io/acme/');
    expect(json.pins.map((p) => p.file)).toEqual(['charts/app/values.yaml']);
    const vendored = json.excluded.find((e) => e.reason.startsWith('vendored Helm dependency charts'));
    expect(vendored).toEqual({ reason: expect.stringContaining('skipVendoredCharts: false'), count: 2, examples: ['charts/app/charts/pg/values.yaml', 'charts/app/charts/redis/values.yaml'] });
    const firstPartyVendored = json.excluded.find((e) => e.reason.startsWith('vendored Helm dependency charts whose files mention a first-party prefix'));
    expect(firstPartyVendored).toMatchObject({ count: 1, examples: ['charts/app/charts/own/values.yaml'] });
    expect(json.config.assumed.some((a) => a.startsWith('no pinwatch.yaml'))).toBe(true);

    const all = await scanJson(t.dir, '--config', writeConfig(t, 'skipVendoredCharts: false\n'));
    expect(all.pins.map((p) => p.file)).toEqual(['charts/app/charts/own/values.yaml', 'charts/app/charts/pg/values.yaml', 'charts/app/charts/redis/values.yaml', 'charts/app/values.yaml']);
    expect(all.excluded.filter((e) => e.reason.startsWith('vendored'))).toEqual([]);
  });

  it('counts chart templates and user excludes, yet scrapes declared extraFiles inside templates/', async () => {
    const t = tree({
      'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\ninclude: ["**/*.yaml"]\nexclude: [legacy/, "**/*.old.yaml"]\nextraFiles: [chart/templates/ds.yml, missing/ds.yml, "nothing/**/*.txt"]\n',
      'chart/Chart.yaml': 'name: chart\n',
      'chart/values.yaml': ref('chart'),
      'chart/templates/deploy.yaml': 'image: {{ .Values.image }}\n',
      'chart/templates/ds.yml': `{{- if .Values.thick }}\n        image: ghcr.io/acme/multus:v4@${SHA('1')}\n{{- else }}\n        image: ghcr.io/acme/multus:v4@${SHA('1')}\n{{- end }}\n`,
      'legacy/values.yaml': ref('legacy'),
      'apps/values.old.yaml': ref('old'),
      'node_modules/pkg/values.yaml': ref('nm'),
    });
    const json = await scanJson(t.dir);
    const files = json.pins.map((p) => `${p.file}:${p.line}`);
    expect(files).toEqual(['chart/templates/ds.yml:2', 'chart/templates/ds.yml:4', 'chart/values.yaml:1']);
    expect(json.pins.filter((p) => p.file.endsWith('ds.yml')).every((p) => p.shape === 'text')).toBe(true);
    const excluded = Object.fromEntries(json.excluded.map((e) => [e.reason, e]));
    expect(excluded['Helm chart templates/ (Go templates, not YAML; declare a file in extraFiles to scrape it)']).toMatchObject({ count: 1, examples: ['chart/templates/deploy.yaml'] });
    expect(excluded['exclude "legacy/" (directories pruned)']).toMatchObject({ count: 1, examples: ['legacy/'] });
    expect(excluded['exclude "**/*.old.yaml"']).toMatchObject({ count: 1, examples: ['apps/values.old.yaml'] });
    expect(excluded['default exclude: node_modules/ directories (not walked)']).toMatchObject({ count: 1 });
    expect(json.skipped).toEqual([
      { file: 'missing/ds.yml', code: 'extra-file-missing', reason: 'declared in extraFiles but does not exist', line: null, scraped: false },
      { file: 'nothing/**/*.txt', code: 'extra-file-no-match', reason: 'extraFiles glob "nothing/**/*.txt" matched no file', line: null, scraped: false },
    ]);
  });

  it('explains an empty result', async () => {
    const t = tree({ 'deploy/app.yaml': ref('x') });
    const r = await runCli(['scan', '--repo', t.dir], t.dir);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^0 pins \(0 first-party, 0 third-party\) in 0 files scanned/);
    expect(r.out).toMatch(/1 {2}YAML files matching no include glob \(not read\) {2}\(e.g. deploy\/app.yaml\)/);
    expect(r.out).toMatch(/assumed: no first-party prefixes: every pin is third-party/);
  });
});

/** Write a config beside the tree's files and return its path, for --config. */
function writeConfig(t: Tree, text: string): string {
  const path = join(t.dir, 'alt.pinwatch.yaml');
  writeFileSync(path, text);
  return path;
}
