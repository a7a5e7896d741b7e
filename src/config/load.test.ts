import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PinwatchError } from '../errors.js';
import { DEFAULT_INCLUDE } from './defaults.js';
import { loadConfig } from './load.js';
import { excerpt, quote } from './validate.js';

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
    expect(c.provenance).toEqual({ methods: ['digest-history', 'tag-commit', 'tag-history', 'git-tag'], buildCommit: 'parent' });
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

  it('rejects a firstParty option that is not a repository prefix, with a domain code and no flag name', () => {
    const run = () => loadConfig(repoWith(), { firstParty: ['acme/'] });
    expect(run).toThrow(/^"acme\/" does not start with a registry host .*docker.io\/acme\//);
    expect(run).toThrow(expect.objectContaining({ code: 'invalid-first-party-prefix' }));
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
rules: { floating-tag: warning, stale-image: off }
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
    expect(c.producers).toEqual([{ name: 'billing/Makefile:image', writes: ['deploy/values.yaml#.billing.image'], line: 10 }]);
    expect(c.buildEntry).toBe('hack/build.mk:all');
    expect(c.provenance).toEqual({ methods: ['registry', 'digest-history'], buildCommit: 'self' });
    expect(c.rules).toEqual({ 'floating-tag': 'warning', 'stale-image': 'off' });
    expect(c.baseline).toBe('.pinwatch-baseline.json');
    expect(c.insecureRegistries).toEqual(['reg.acme.test:5000']);
  });

  it('treats an empty file as all defaults, read from the file', () => {
    const c = loadConfig(repoWith('# nothing yet\n'));
    expect(c.origin.file).toBe('pinwatch.yaml');
    expect(c.include).toEqual(DEFAULT_INCLUDE);
  });

  it('reads links.* templates and refuses a bad one with file:line', () => {
    const c = loadConfig(repoWith('links:\n  repository: https://git.acme.test/app\n  commit: "{repo}/commit/{commit}"\n  pr: "https://review.acme.test/{pr}"\n'));
    expect(c.links).toEqual({ repository: 'https://git.acme.test/app', commit: '{repo}/commit/{commit}', pr: 'https://review.acme.test/{pr}' });
    expect(loadConfig(repoWith('# none\n')).links).toEqual({});
    const e = loadError('firstParty: [ghcr.io/acme/]\nlinks:\n  pr: "javascript:{pr}"\n');
    expect(e.code).toBe('config-invalid');
    expect([e.file, e.line]).toEqual(['pinwatch.yaml', 3]);
    expect(e.message).toContain('does not start with http://, https:// or {repo}');
  });

  it('keeps the default methods when only buildCommit is set', () => {
    const short = loadConfig(repoWith('firstParty: [ghcr.io/acme/]\nprovenance: [registry, digest-history, git-tag]\n'));
    expect(short.provenance).toEqual({ methods: ['registry', 'digest-history', 'git-tag'], buildCommit: 'parent' });
    expect(() => loadConfig(repoWith('provenance: [registry, carbon-dating]\n'))).toThrow(/provenance\.methods\[1\] must be one of registry, digest-history, tag-commit, tag-history, git-tag/);
    const c = loadConfig(repoWith('firstParty: [ghcr.io/acme/]\nprovenance:\n  buildCommit: self\n'));
    expect(c.provenance).toEqual({ methods: ['digest-history', 'tag-commit', 'tag-history', 'git-tag'], buildCommit: 'self' });
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
    { name: 'bad build entry', config: 'buildEntry: "Makefile:"\n', line: 1, message: /buildEntry: "Makefile:" is not file:target like Makefile:build, a recipe file like skaffold.yaml, or none/ },
    { name: 'bad buildEnv name', config: 'buildEnv:\n  KO-REPO: x\n', line: 2, message: /KO-REPO/ },
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

describe('paths the config names stay inside the repository', () => {
  function loadIn(dir: string): PinwatchError {
    try {
      loadConfig(dir);
    } catch (e) {
      if (e instanceof PinwatchError) return e;
      throw e;
    }
    throw new Error('expected a config error');
  }

  it.each([
    ['baseline: /etc/passwd', 2, /^pinwatch.yaml:2: baseline: "\/etc\/passwd" is absolute; expected a path inside the repository/],
    ['baseline: ../outside.json', 2, /baseline: "..\/outside.json" goes up with \.\./],
    ['baseline: ~/base.json', 2, /baseline: "~\/base.json" starts with ~/],
    ['buildEntry: /etc/Makefile:build', 2, /^pinwatch.yaml:2: buildEntry: "\/etc\/Makefile:build" is absolute/],
    ['buildEntry: ../up/Makefile:build', 2, /buildEntry: "..\/up\/Makefile:build" goes up/],
    ['images:\n  app:\n    dockerfile: /etc/Dockerfile', 4, /^pinwatch.yaml:4: images.app.dockerfile: "\/etc\/Dockerfile" is absolute/],
    ['images:\n  app:\n    context: ../..', 4, /images.app.context: "..\/.." goes up/],
    ['producers:\n  - name: x\n    writes: ["/etc/values.yaml#.a"]', 4, /^pinwatch.yaml:4: producers\[0\].writes\[0\]: "\/etc\/values.yaml#.a" is absolute/],
    ['include: ["~/values.yaml"]', 2, /^pinwatch.yaml:2: include\[0\]: "~\/values.yaml" starts with ~/],
    ['include: ["/etc/**"]', 2, /^pinwatch.yaml:2: include\[0\]: "\/etc\/\*\*" is absolute/],
    ['include: ["../**/values.yaml"]', 2, /include\[0\]: "..\/\*\*\/values.yaml" leaves the repository/],
    ['extraFiles: ["~/deploy.yml"]', 2, /extraFiles\[0\]: "~\/deploy.yml" starts with ~/],
  ])('%s → file:line config error', (body, line, message) => {
    const e = loadError(`# hostile\n${body}\n`);
    expect(e.code).toBe('config-invalid');
    expect(e.line).toBe(line);
    expect(e.describe()).toMatch(message);
  });

  it('a path through a symlinked directory that leaves the repository is refused with file:line', () => {
    const outside = mkdtempSync(join(tmpdir(), 'pinwatch-outside-'));
    dirs.push(outside);
    const dir = repoWith('firstParty: [ghcr.io/acme/]\nbaseline: ci/base.json\n');
    symlinkSync(outside, join(dir, 'ci'));
    const e = loadIn(dir);
    expect(e.describe()).toMatch(/^pinwatch.yaml:2: baseline: "ci\/base.json" leads out of the repository through a symlink/);
  });

  it('a path through a symlinked directory that stays inside is accepted', () => {
    const dir = repoWith('buildEntry: build/Makefile:all\n');
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'build'));
    expect(loadConfig(dir).buildEntry).toBe('build/Makefile:all');
  });

  it('pinwatch.yaml as a symlink leaving the repository is refused, its target never read', () => {
    const outside = mkdtempSync(join(tmpdir(), 'pinwatch-outside-'));
    dirs.push(outside);
    writeFileSync(join(outside, 'pinwatch.yaml'), 'include: [secret-token-value]\n: : :\n');
    const dir = repoWith();
    symlinkSync(join(outside, 'pinwatch.yaml'), join(dir, 'pinwatch.yaml'));
    const e = loadIn(dir);
    expect(e.code).toBe('path-outside-repo');
    expect(e.describe()).toBe('pinwatch.yaml: the config leads out of the repository through a symlink; not read (expected a regular file inside the repository)');
  });

  it('a --config path outside the repository is the operator\'s own file and is read', () => {
    const outside = mkdtempSync(join(tmpdir(), 'pinwatch-outside-'));
    dirs.push(outside);
    writeFileSync(join(outside, 'pw.yaml'), 'firstParty: [ghcr.io/acme/]\n');
    expect(loadConfig(repoWith(), { configPath: join(outside, 'pw.yaml') }).firstParty).toEqual(['ghcr.io/acme/']);
  });

  it('quotes at most a short escaped excerpt of a long value', () => {
    const e = loadError(`include: "${'a'.repeat(200)}\\u0007"\n`);
    expect(e.message.length).toBeLessThan(200);
    expect(e.message).toMatch(/must be a list of globs; saw string "a{80}"… \(201 characters\)/);
  });
});

describe('rules: ids must be known', () => {
  it.each([
    ['rules: { no-such-rule: error }', /^pinwatch.yaml:1: rules: unknown rule id "no-such-rule"; known rule ids: first-party-missing-digest, .*stale-image/],
    ['rules:\n  floting-tag: off', /^pinwatch.yaml:2: rules: unknown rule id "floting-tag"; did you mean "floating-tag"\?/],
  ])('%s', (body, message) => {
    const e = loadError(`${body}\n`);
    expect(e.code).toBe('config-invalid');
    expect(e.describe()).toMatch(message);
  });

  it('accepts lint and stale rule ids', () => {
    expect(loadConfig(repoWith('rules: { floating-tag: off, stale-image: warning, stale-unknown: note }\n')).rules).toEqual({
      'floating-tag': 'off',
      'stale-image': 'warning',
      'stale-unknown': 'note',
    });
  });
});

describe('excerpts of hostile config text', () => {
  it.each([
    ['short', 'abc', 'abc', '"abc"'],
    ['control bytes escaped', 'a\u0000b\nc\u001b', 'a\\u0000b\\nc\\u001b', '"a\\u0000b\\nc\\u001b"'],
    ['cut at 80 characters', 'x'.repeat(81), `${'x'.repeat(80)}…`, `"${'x'.repeat(80)}"… (81 characters)`],
  ])('%s', (_name, value, cut, quoted) => {
    expect(excerpt(value)).toBe(cut);
    expect(quote(value)).toBe(quoted);
  });
});
