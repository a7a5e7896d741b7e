import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PinwatchError } from '../errors.js';
import { DEFAULT_INCLUDE } from './defaults.js';
import { loadConfig } from './load.js';

const dirs: string[] = [];
function repoWith(config?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-config-'));
  dirs.push(dir);
  if (config !== undefined) writeFileSync(join(dir, 'pinwatch.yaml'), config);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function loadError(config: string): PinwatchError {
  try {
    loadConfig(repoWith(config));
  } catch (e) {
    if (e instanceof PinwatchError) return e;
    throw e;
  }
  throw new Error('expected a config error');
}

describe('loadConfig without a file', () => {
  it('uses the defaults and says what it assumed', () => {
    const c = loadConfig(repoWith());
    expect(c.include).toEqual(DEFAULT_INCLUDE);
    expect(c.firstParty).toEqual([]);
    expect(c.skipVendoredCharts).toBe(true);
    expect(c.buildEntry).toBe('Makefile:build');
    expect(c.provenance).toEqual({ methods: ['digest-history', 'git-tag'], buildCommit: 'parent' });
    expect(c.origin.file).toBeUndefined();
    expect(c.origin.assumed[0]).toMatch(/no pinwatch.yaml/);
    expect(c.origin.assumed.some((a) => a.startsWith('include defaults: **/values.yaml'))).toBe(true);
    expect(c.origin.assumed.some((a) => a.includes('every pin is third-party'))).toBe(true);
  });

  it('takes --first-party prefixes and then assumes nothing about first party', () => {
    const c = loadConfig(repoWith(), { firstParty: ['ghcr.io/acme/'] });
    expect(c.firstParty).toEqual(['ghcr.io/acme/']);
    expect(c.origin.assumed.some((a) => a.includes('third-party'))).toBe(false);
  });

  it('rejects a --first-party that is not a repository prefix', () => {
    expect(() => loadConfig(repoWith(), { firstParty: ['acme/'] })).toThrow(/--first-party: "acme\/" does not start with a registry host .*docker.io\/acme\//);
  });

  it('fails when an explicit --config file does not exist', () => {
    const dir = repoWith();
    expect(() => loadConfig(dir, { configPath: 'nope.yaml' })).toThrow(/config file "nope.yaml" does not exist/);
  });
});

describe('loadConfig with a file', () => {
  it('reads every key and merges --first-party', () => {
    const c = loadConfig(
      repoWith(`# comment
firstParty: [ghcr.io/acme/]
include: ['**/values.yaml', 'images/*.tag']
exclude: [legacy/]
extraFiles: [deploy/templates/daemonset.yml]
skipVendoredCharts: false
images:
  billing: { repository: ghcr.io/acme/billing, dockerfile: billing/Dockerfile, context: billing, inputs: ['lib/**'], derive: false }
producers:
  - name: 'billing/Makefile:image'
    writes: ['deploy/values.yaml#.billing.image']
buildEntry: 'hack/build.mk:all'
provenance: { methods: [registry, digest-history], buildCommit: self }
rules: { floating-tag: warning, two-digests: off }
baseline: .pinwatch-baseline.json
insecureRegistries: ['reg.acme.test:5000']
`),
      { firstParty: ['ghcr.io/acme/', 'quay.io/acme/'] },
    );
    expect(c.origin).toEqual({ file: 'pinwatch.yaml', assumed: [] });
    expect(c.firstParty).toEqual(['ghcr.io/acme/', 'quay.io/acme/']);
    expect(c.include).toEqual(['**/values.yaml', 'images/*.tag']);
    expect(c.exclude).toEqual(['legacy/']);
    expect(c.extraFiles).toEqual(['deploy/templates/daemonset.yml']);
    expect(c.skipVendoredCharts).toBe(false);
    expect(c.images.billing).toEqual({ repository: 'ghcr.io/acme/billing', dockerfile: 'billing/Dockerfile', context: 'billing', inputs: ['lib/**'], derive: false });
    expect(c.producers).toEqual([{ name: 'billing/Makefile:image', writes: ['deploy/values.yaml#.billing.image'] }]);
    expect(c.buildEntry).toBe('hack/build.mk:all');
    expect(c.provenance).toEqual({ methods: ['registry', 'digest-history'], buildCommit: 'self' });
    expect(c.rules).toEqual({ 'floating-tag': 'warning', 'two-digests': 'off' });
    expect(c.baseline).toBe('.pinwatch-baseline.json');
    expect(c.insecureRegistries).toEqual(['reg.acme.test:5000']);
  });

  it('treats an empty file as all defaults, read from the file', () => {
    const c = loadConfig(repoWith('# nothing yet\n'));
    expect(c.origin.file).toBe('pinwatch.yaml');
    expect(c.include).toEqual(DEFAULT_INCLUDE);
  });

  it('keeps the default methods when only buildCommit is set', () => {
    const short = loadConfig(repoWith('firstParty: [ghcr.io/acme/]\nprovenance: [registry, digest-history, git-tag]\n'));
    expect(short.provenance).toEqual({ methods: ['registry', 'digest-history', 'git-tag'], buildCommit: 'parent' });
    expect(() => loadConfig(repoWith('provenance: [registry, carbon-dating]\n'))).toThrow(/provenance\.methods\[1\] must be one of registry, digest-history, git-tag/);
    const c = loadConfig(repoWith('firstParty: [ghcr.io/acme/]\nprovenance:\n  buildCommit: self\n'));
    expect(c.provenance).toEqual({ methods: ['digest-history', 'git-tag'], buildCommit: 'self' });
  });
});

describe('config errors name the file, the line and the expected form', () => {
  const cases: { name: string; config: string; line: number; message: RegExp }[] = [
    { name: 'unknown key, close to a valid one', config: 'include: [a.yaml]\nfirstparty: [ghcr.io/a/]\n', line: 2, message: /unknown key "firstparty"; did you mean "firstParty"\?/ },
    { name: 'unknown key, nothing close', config: '\n\nwhatever: 1\n', line: 3, message: /unknown key "whatever"; valid keys: firstParty, include/ },
    { name: 'unknown nested key', config: 'provenance:\n  buildCommit: self\n  method: [registry]\n', line: 3, message: /unknown key "provenance.method"; did you mean "methods"\?/ },
    { name: 'unknown image key', config: 'images:\n  a:\n    dockerFile: x/Dockerfile\n', line: 3, message: /unknown key "images.a.dockerFile"; did you mean "dockerfile"\?/ },
    { name: 'string where a list belongs', config: 'firstParty: [ghcr.io/a/]\ninclude: "**/values.yaml"\n', line: 2, message: /include must be a list of globs; saw string "\*\*\/values.yaml"/ },
    { name: 'number in a glob list', config: 'include:\n  - a.yaml\n  - 42\n', line: 3, message: /include\[1\] must be a string; saw number 42/ },
    { name: 'boolean as a string', config: 'skipVendoredCharts: "no"\n', line: 1, message: /skipVendoredCharts must be true or false; saw string "no"/ },
    { name: 'unbalanced bracket glob', config: 'exclude:\n  - "legacy/[abc"\n', line: 2, message: /exclude\[0\]: "legacy\/\[abc" is not a valid glob: missing closing "\]".*expected a repo-relative glob/ },
    { name: 'absolute glob', config: 'include: [/etc/values.yaml]\n', line: 1, message: /include\[0\]: "\/etc\/values.yaml" is absolute/ },
    { name: 'glob leaving the repo', config: 'extraFiles: [../other/x.yml]\n', line: 1, message: /leaves the repository/ },
    { name: 'first-party prefix without a host', config: 'firstParty:\n  - ghcr.io/ok/\n  - acme\n', line: 3, message: /firstParty\[1\]: "acme" does not start with a registry host/ },
    { name: 'first-party prefix with a scheme', config: 'firstParty: ["https://ghcr.io/acme/"]\n', line: 1, message: /has a URL scheme/ },
    { name: 'first-party prefix with uppercase path', config: 'firstParty: [ghcr.io/Acme/]\n', line: 1, message: /"ghcr.io\/Acme\/" is not a repository prefix/ },
    { name: 'bad enum', config: 'provenance:\n  buildCommit: grandparent\n', line: 2, message: /provenance.buildCommit must be one of parent, self; saw string "grandparent"/ },
    { name: 'bad rule level', config: 'rules:\n  floating-tag: fatal\n', line: 2, message: /rules.floating-tag must be one of error, warning, note, off/ },
    { name: 'bad rule id', config: 'rules:\n  Floating Tag: error\n', line: 2, message: /rules: key "Floating Tag" is not a rule id/ },
    { name: 'bad build entry', config: 'buildEntry: Makefile\n', line: 1, message: /buildEntry: "Makefile" is not file:target/ },
    { name: 'producer without writes', config: 'producers:\n  - name: x\n', line: 2, message: /producers\[0\] is missing "writes"/ },
    { name: 'top level is a list', config: '- a\n- b\n', line: 1, message: /must be a map; saw a list/ },
    { name: 'YAML that does not parse', config: 'include:\n  - a.yaml\n bad: [\n', line: 3, message: /not valid YAML/ },
    { name: 'duplicate key', config: 'include: [a]\ninclude: [b]\n', line: 2, message: /not valid YAML: Map keys must be unique/ },
  ];
  it.each(cases)('$name', ({ config, line, message }) => {
    const e = loadError(config);
    expect(e.code).toBe('config-invalid');
    expect(e.file).toBe('pinwatch.yaml');
    expect(e.line).toBe(line);
    expect(e.message).toMatch(message);
    expect(e.describe()).toMatch(new RegExp(`^pinwatch.yaml:${line}: `));
  });
});
