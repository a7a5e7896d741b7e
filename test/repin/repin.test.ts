/**
 * repin on a demo-like tree: every shape of one repository moves, lockstep keys
 * included; the wide rescan catches a leftover outside the include globs; a dry
 * run writes nothing. Uses the library (repin) and the CLI (main).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultConfig } from '../../src/config/defaults.js';
import type { Config } from '../../src/config/types.js';
import type { BuildModel } from '../../src/producers/types.js';
import { repin, repinExitCode } from '../../src/repin/index.js';
import { scanRepo } from '../../src/scan/index.js';
import { main } from '../../src/cli/main.js';
import type { TestRepo } from '../support/repo.js';
import { makeRepo } from '../support/repo.js';

const APP = 'ghcr.io/acme/app';
const OLD = `sha256:${'a'.repeat(64)}`;
const OLDER = `sha256:${'b'.repeat(64)}`;
const NEW = `sha256:${'c'.repeat(64)}`;
const OTHER = `sha256:${'d'.repeat(64)}`;

const files: Record<string, string> = {
  'deploy/app/values.yaml': [
    '# The app chart. Keep comments.',
    'app:',
    `  image: "${APP}:v1.0.0@${OLD}"   # stamped by make image`,
    '  split:',
    '    registry: ghcr.io',
    '    repository: acme/app',
    '    tag: v1.0.0',
    `    digest: ${OLD}`,
    '  inTag:',
    `    repository: ${APP}`,
    `    tag: 'v1.0.0@${OLD}'`,
    `  args: ["--x-image=${APP}:v1.0.0@${OLD}", "--verbose"]`,
    '  sidecar:',
    `    image: ghcr.io/acme/other:v3@${OTHER}`,
    '',
  ].join('\r\n'),
  'deploy/backup/values.yaml': [
    'backup:',
    '  # DO NOT hand-edit: stamped together with app.image',
    `  clientImage: ${APP}:v0.9.0@${OLDER}`,
    `  legacyImage: ghcr.io/acme/app-legacy:v0.1@${OLDER}`,
    '',
  ].join('\n'),
  'images/app.tag': `${APP}:v1.0.0@${OLD}\n`,
  'docs/NOTES.txt': 'nothing to see here\n',
};

const model: BuildModel = {
  entry: 'Makefile:build',
  recipes: [],
  problems: [],
  producers: [
    {
      id: 'Makefile:image',
      makefile: 'Makefile',
      target: 'image',
      line: 3,
      built: true,
      writes: [
        { file: 'deploy/app/values.yaml', keyPath: 'app.image', via: 'yq', refId: 'r1', source: { file: 'Makefile', line: 5 } },
        { file: 'deploy/backup/values.yaml', keyPath: 'backup.clientImage', via: 'yq', refId: 'r1', source: { file: 'Makefile', line: 6 } },
        { file: 'deploy/backup/values.yaml', keyPath: 'backup.legacyImage', via: 'yq', refId: 'r1', source: { file: 'Makefile', line: 7 } },
        { file: 'images/app.tag', via: 'redirect', refId: 'r1', source: { file: 'Makefile', line: 8 } },
      ],
    },
  ],
};

let repo: TestRepo | undefined;
afterEach(() => repo?.cleanup());

function config(): Config {
  return { ...defaultConfig(), firstParty: ['ghcr.io/acme/'] };
}

function setup(extra: Record<string, string> = {}): TestRepo {
  repo = makeRepo('pinwatch-repin-');
  repo.commit({ ...files, ...extra }, 'initial');
  return repo;
}

const read = (f: string) => readFileSync(join(repo!.dir, f), 'utf8');

describe('repin', () => {
  it('moves every pin of the repository in every shape, and lockstep keys, in one go', async () => {
    setup();
    const r = await repin({ root: repo!.dir, config: config(), image: APP, to: `${APP}:v1.1.0@${NEW}`, buildModel: model });
    expect(r.problems).toEqual([]);
    expect(r.leftovers).toEqual([]);
    expect(repinExitCode(r)).toBe(0);
    expect(r.oldDigests.sort()).toEqual([OLD, OLDER]);

    const app = read('deploy/app/values.yaml');
    expect(app).toBe(
      files['deploy/app/values.yaml']!.replaceAll(OLD, NEW).replaceAll('v1.0.0', 'v1.1.0'),
    );
    expect(app).toContain('\r\n'); // CRLF kept
    expect(read('images/app.tag')).toBe(`${APP}:v1.1.0@${NEW}\n`);
    const backup = read('deploy/backup/values.yaml');
    expect(backup).toContain(`  clientImage: ${APP}:v1.1.0@${NEW}\n`);
    // A lockstep key of another repository receives the same ref as the producer would write.
    expect(backup).toContain(`  legacyImage: ${APP}:v1.1.0@${NEW}\n`);
    expect(backup).toContain('# DO NOT hand-edit');
    const lock = r.changes.filter((c) => c.lockstep);
    expect(lock.map((c) => c.keyPath)).toEqual(['backup.legacyImage']);

    // The other repository in the same file is untouched.
    expect(app).toContain(`ghcr.io/acme/other:v3@${OTHER}`);
    const after = await scanRepo(repo!.dir, config());
    const appPins = after.pins.filter((p) => p.ref.name === APP);
    expect(appPins.length).toBeGreaterThanOrEqual(7);
    expect(appPins.every((p) => p.ref.digest === NEW)).toBe(true);
  });

  it('fails and names the leftover when the old digest survives outside the include globs', async () => {
    setup({ 'docs/deploy.md': `Pinned at ${APP}@${OLD} for the demo.\n` });
    const r = await repin({ root: repo!.dir, config: config(), image: APP, to: `${APP}:v1.1.0@${NEW}`, buildModel: model });
    expect(r.written).toBe(true);
    expect(r.leftovers).toEqual([{ file: 'docs/deploy.md', line: 1, text: `Pinned at ${APP}@${OLD} for the demo.`, kind: 'text' }]);
    expect(repinExitCode(r)).toBe(1);
  });

  it('keeps a BOM and CRLF endings byte for byte in a multi-document file', async () => {
    const text = `\uFEFF# first\r\na: 1\r\n---\r\nimg:\r\n  image: ${APP}:v1.0.0@${OLD} # c\r\n`;
    setup({ 'deploy/multi/values.yaml': text });
    const r = await repin({ root: repo!.dir, config: config(), image: APP, to: `${APP}:v1.1.0@${NEW}` });
    expect(r.problems).toEqual([]);
    expect(readFileSync(join(repo!.dir, 'deploy/multi/values.yaml'))).toEqual(Buffer.from(text.replace(`v1.0.0@${OLD}`, `v1.1.0@${NEW}`), 'utf8'));
  });

  it('names pins it leaves alone and files it could not read', async () => {
    setup({ 'deploy/bare/values.yaml': `bare:\n  repository: ${APP}\n  pullPolicy: Always\n`, 'deploy/bin/values.yaml': Buffer.from([0x61, 0x00, 0x62]).toString('latin1') });
    const r = await repin({ root: repo!.dir, config: config(), image: APP, to: `${APP}:v1.1.0@${NEW}` });
    expect(r.written).toBe(true);
    const codes = r.problems.map((p) => `${p.code} ${p.file}`);
    expect(codes).toContain('not-read:binary-file deploy/bin/values.yaml');
    expect(codes).toContain('pin-without-version deploy/bare/values.yaml');
    expect(r.problems.every((p) => !p.blocking)).toBe(true);
  });

  it('quotes a plain tag that would read back as a number', async () => {
    setup({ 'deploy/num/values.yaml': `img:\n  repository: ${APP}\n  tag: v1.0.0\n  digest: ${OLD}\n` });
    await repin({ root: repo!.dir, config: config(), image: APP, to: `${APP}:1.10@${NEW}` });
    expect(read('deploy/num/values.yaml')).toBe(`img:\n  repository: ${APP}\n  tag: "1.10"\n  digest: ${NEW}\n`);
  });

  it('refuses, writing nothing, when a pin stores a tag and the target has none', async () => {
    setup();
    const r = await repin({ root: repo!.dir, config: config(), image: APP, to: `${APP}@${NEW}` });
    expect(r.written).toBe(false);
    expect(r.problems.some((p) => p.blocking && /target names no tag/.test(p.reason))).toBe(true);
    expect(read('images/app.tag')).toBe(files['images/app.tag']);
  });
});

describe('lockstep from a real Makefile (producers module, through the CLI)', () => {
  it('moves a key the recipe stamps with the same ref, even one naming another repository', async () => {
    repo = makeRepo('pinwatch-repin-make-');
    repo.commit(
      {
        'Makefile': 'build:\n\tmake -C packages/app image\n',
        'packages/app/Makefile': [
          'REGISTRY ?= ghcr.io/acme',
          'TAG ?= v1.0.0',
          'image:',
          '\tdocker buildx build . --tag $(REGISTRY)/app:$(TAG) --metadata-file app.json',
          '\tIMAGE="$(REGISTRY)/app:$(TAG)@$$(yq e \'."containerimage.digest"\' app.json -r)" \\',
          "\t\tyq -i '.app.image = strenv(IMAGE) | .backup.clientImage = strenv(IMAGE)' values.yaml",
          '\tyq .app.image values.yaml > images/app.tag',
          '',
        ].join('\n'),
        'packages/app/values.yaml': `app:\n  image: ${APP}:v1.0.0@${OLD}\nbackup:\n  # froze: no producer stamped it before\n  clientImage: ghcr.io/acme/app-legacy:v0.9@${OLDER}\n`,
        'packages/app/images/app.tag': `${APP}:v1.0.0@${OLD}\n`,
      },
      'initial',
    );
    const out: string[] = [];
    const code = await main(['--first-party', 'ghcr.io/acme/', 'repin', APP, '--to', `${APP}:v1.1.0@${NEW}`], { out: (t) => out.push(t), err: (t) => out.push(t), env: {}, cwd: repo.dir });
    const text = out.join('');
    expect(text).not.toMatch(/producers-unavailable/);
    expect(code).toBe(0);
    expect(read('packages/app/values.yaml')).toBe(`app:\n  image: ${APP}:v1.1.0@${NEW}\nbackup:\n  # froze: no producer stamped it before\n  clientImage: ${APP}:v1.1.0@${NEW}\n`);
    expect(read('packages/app/images/app.tag')).toBe(`${APP}:v1.1.0@${NEW}\n`);
    expect(text).toContain('[lockstep: packages/app/Makefile:image]');
  });
});

describe('a sed write edits only the lines its pattern matches (cozystack capi-providers-cpprovider)', () => {
  it('moves the matched pin and leaves the other images of the manifest alone', async () => {
    repo = makeRepo('pinwatch-repin-sed-');
    const manifest = [
      'spec:',
      '  agent:',
      '    default:',
      '      image: registry.k8s.io/kas-network-proxy/proxy-agent:v0.31.0',
      '  template:',
      '    spec:',
      '      containers:',
      `      - image: ${APP}:v1.0.0@${OLD}`,
      '        name: manager',
      '',
    ].join('\n');
    repo.commit(
      {
        'Makefile': 'build:\n\tmake -C packages/app image\n',
        'packages/app/Makefile': [
          'IMAGE_BASE ?= ghcr.io/acme/app',
          'image:',
          '\tdocker buildx build . --tag $(IMAGE_BASE):v1 --metadata-file app.json',
          '\tdigest=$$(yq e \'."containerimage.digest"\' app.json -o json -r); \\',
          '\tIMG="$(IMAGE_BASE):v1@$$digest"; \\',
          '\techo "$$IMG" > images/app.tag; \\',
          '\tsed -i.bak -E "s|image: ghcr\\.io/.+/app:[^[:space:]]+|image: $$IMG|" files/components.yaml',
          '',
        ].join('\n'),
        'packages/app/files/components.yaml': manifest,
        'packages/app/images/app.tag': `${APP}:v1.0.0@${OLD}\n`,
      },
      'initial',
    );
    repo.write({ 'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\ninclude: ["**/images/*.tag", "packages/app/files/*.yaml"]\n' });
    const out: string[] = [];
    const code = await main(['repin', APP, '--to', `${APP}:v1.1.0@${NEW}`, '--format', 'json'], { out: (t) => out.push(t), err: (t) => out.push(t), env: {}, cwd: repo.dir });
    const r = JSON.parse(out.join('')) as { changes: { file: string; line: number; to: string }[]; problems: { code: string }[] };
    expect(r.problems.map((p) => p.code)).not.toContain('producers-unavailable');
    expect(r.changes.map((c) => [c.file, c.line, c.to])).toEqual([
      ['packages/app/files/components.yaml', 8, `${APP}:v1.1.0@${NEW}`],
      ['packages/app/images/app.tag', 1, `${APP}:v1.1.0@${NEW}`],
    ]);
    expect(code).toBe(0);
    expect(read('packages/app/files/components.yaml')).toBe(manifest.replace(`${APP}:v1.0.0@${OLD}`, `${APP}:v1.1.0@${NEW}`));
  });
});

describe('pinwatch repin (CLI)', () => {
  function run(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = main(args, { out: (t) => out.push(t), err: (t) => err.push(t), env: {}, cwd: repo!.dir });
    return code.then((c) => ({ code: c, out: out.join(''), err: err.join('') }));
  }

  it('--dry-run prints a unified diff and writes nothing', async () => {
    setup();
    const r = await run(['--first-party', 'ghcr.io/acme/', 'repin', APP, '--to', `${APP}:v1.1.0@${NEW}`, '--dry-run']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('--- a/images/app.tag');
    expect(r.out).toContain(`-${APP}:v1.0.0@${OLD}`);
    expect(r.out).toContain(`+${APP}:v1.1.0@${NEW}`);
    expect(read('images/app.tag')).toBe(files['images/app.tag']);
    expect(repo!.git('status', '--porcelain')).toBe('');
  });

  it('json output lists the changes; a bad --to is a usage error (exit 2)', async () => {
    setup();
    const ok = await run(['--format', 'json', 'repin', APP, '--to', `${APP}:v1.1.0@${NEW}`]);
    expect(ok.code).toBe(0);
    const body = JSON.parse(ok.out) as { changes: { file: string }[]; written: boolean };
    expect(body.written).toBe(true);
    expect(new Set(body.changes.map((c) => c.file))).toEqual(new Set(['deploy/app/values.yaml', 'deploy/backup/values.yaml', 'images/app.tag']));
    const bad = await run(['repin', APP, '--to', 'ghcr.io/acme/else:v1']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^pinwatch: --to: the target names ghcr.io\/acme\/else, but the pins being moved are of ghcr.io\/acme\/app/);
    const junk = await run(['repin', APP, '--to', 'Not A Ref']);
    expect(junk.code).toBe(2);
    expect(junk.err).toMatch(/^pinwatch: --to: the target must be an image reference like ghcr.io\/acme\/app:v1.2.0@sha256:<64 hex>/);
    const none = await run(['repin', APP]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/repin needs exactly one target, a reference \(e.g. [^)]*\) or a tag: pass --to REF or --to-tag TAG\n$/);
  });

  it('the library words target errors without CLI flags, under their own codes', async () => {
    setup();
    const cases: [string | undefined, string][] = [
      [undefined, 'repin-target-missing'],
      ['Not A Ref', 'repin-target-invalid'],
      ['ghcr.io/acme/else:v1', 'repin-target-repository'],
    ];
    for (const [to, code] of cases) {
      const e = await repin({ root: repo!.dir, config: config(), image: APP, to, dryRun: true, buildModel: model }).then(
        () => undefined,
        (err: unknown) => err as { code: string; message: string },
      );
      expect(e?.code, String(to)).toBe(code);
      expect(e?.message, String(to)).not.toMatch(/--/);
    }
  });
});
