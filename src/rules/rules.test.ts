import { describe, expect, it } from 'vitest';
import { lint } from '../lint/engine.js';
import { config, D1, D2, D3, model, pin, producer, write } from '../../test/support/builders.js';
import type { Finding } from '../model/index.js';
import { collectDockerfile } from '../collect/index.js';

// A tree shaped like the seeds: one pin per situation, each producer spelled out.
const BSC = 'packages/system/bsc/values.yaml';
const PLATFORM = 'packages/core/platform/values.yaml';
const OSC = 'packages/system/objectstorage-controller/values.yaml';
const SWFS = 'packages/extra/seaweedfs/values.yaml';
const MC = 'packages/system/migration-controller/values.yaml';
const INST = 'packages/core/installer/values.yaml';
const KILO = 'packages/system/kilo/values.yaml';
const DASH = 'packages/system/dashboard/values.yaml';
const TAG = 'packages/system/bsc/images/bsc.tag';

const pins = [
  pin(BSC, 2, `ghcr.io/acme/bsc:v1.6.0@${D1}`, { keyPath: 'backupStrategyController.image' }),
  pin(BSC, 5, 'ghcr.io/acme/redis-backup:v1.6.0', { keyPath: 'backupStrategyController.redisBackupClientImage' }),
  pin(BSC, 6, `ghcr.io/acme/platform-migrations:v1.4.0-rc.2@${D3}`, { keyPath: 'backupStrategyController.chBackupClientImage' }),
  pin(BSC, 7, `ghcr.io/acme/mongo-backup:v1.6.0@${D1}`, { keyPath: 'backupStrategyController.mongoBackupClientImage' }),
  pin(BSC, 8, 'docker.io/library/busybox:1.37.0', { keyPath: 'backupStrategyController.busybox' }),
  pin(TAG, 1, `ghcr.io/acme/bsc:v1.6.0@${D1}`, { shape: 'tag-file' }),
  pin(PLATFORM, 3, `ghcr.io/acme/platform-migrations:v1.5.0@${D3}`, { keyPath: 'migrations.image' }),
  pin(OSC, 4, `ghcr.io/acme/objectstorage-controller:v1.5.0@${D1}`, { keyPath: 'objectstorage.controller.image' }),
  pin(SWFS, 9, `ghcr.io/acme/objectstorage-controller:v1.4.0@${D2}`, { keyPath: 'seaweedfs.cosi.image' }),
  pin(MC, 2, 'ghcr.io/acme/migration-controller:latest', { keyPath: 'migrationController.image' }),
  pin(INST, 2, `ghcr.io/acme/installer:latest@${D1}`, { keyPath: 'cozystack.image' }),
  pin(KILO, 2, `ghcr.io/acme/kilo:v1.0.0@${D1}`, { keyPath: 'kilo.image' }),
  pin(DASH, 2, `ghcr.io/acme/dashboard:v1.0.0@${D1}`, { keyPath: 'dashboard.image' }),
];

const producers = [
  producer('packages/system/bsc/Makefile', 'image', [write(BSC, 'backupStrategyController.image', 'bsc'), write(TAG, undefined, 'bsc')]),
  producer('packages/core/platform/Makefile', 'image', [
    write(PLATFORM, 'migrations.image', 'migrations'),
    write(BSC, 'backupStrategyController.chBackupClientImage', 'migrations'),
    write(BSC, 'backupStrategyController.redisBackupClientImage', 'redis'),
    write(DASH, 'dashboard.image', 'dash-from-platform'),
  ]),
  producer('packages/system/objectstorage-controller/Makefile', 'image', [write(OSC, 'objectstorage.controller.image', 'osc')]),
  producer('packages/extra/seaweedfs/Makefile', 'image', [write(SWFS, 'seaweedfs.cosi.image', 'cosi')]),
  producer('packages/system/migration-controller/Makefile', 'image', [write(MC, 'migrationController.image', 'mc')]),
  producer('packages/core/installer/Makefile', 'image', [write(INST, 'cozystack.image', 'inst')]),
  producer('packages/system/kilo/Makefile', 'image', [write(KILO, 'kilo.image', 'kilo')], false),
  producer('packages/system/dashboard/Makefile', 'image', [write(DASH, 'dashboard.image', 'dash')]),
];

function where(f: Finding): string {
  return f.pin?.keyPath ? `${f.file}#${f.pin.keyPath}` : `${f.file}:${f.line}`;
}

function byRule(findings: Finding[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of findings) (out[f.rule] ??= []).push(where(f));
  for (const k of Object.keys(out)) out[k]!.sort();
  return out;
}

describe('lint rules on a seed-shaped tree', () => {
  const result = lint({ pins, model: model(producers), config: config() });
  const got = byRule(result.findings);

  it('fires each rule exactly where it should and nowhere else', () => {
    expect(got).toEqual({
      'first-party-missing-digest': [`${BSC}#backupStrategyController.redisBackupClientImage`, `${MC}#migrationController.image`],
      'floating-tag': [`${INST}#cozystack.image`, `${MC}#migrationController.image`],
      'repository-multiple-digests': [`${SWFS}#seaweedfs.cosi.image`, `${OSC}#objectstorage.controller.image`],
      'no-producer': [`${BSC}#backupStrategyController.mongoBackupClientImage`],
      'multiple-producers': [`${DASH}#dashboard.image`],
      'lockstep-mismatch': [`${BSC}#backupStrategyController.chBackupClientImage`],
      'producer-not-built': ['packages/system/kilo/Makefile:5'],
    });
  });

  it('uses the catalog default levels and hints', () => {
    const f = result.findings.find((x) => x.rule === 'no-producer')!;
    expect(f.severity).toBe('error');
    expect(f.hint).toMatch(/yq -i/);
    expect(f.message).toContain('backupStrategyController.mongoBackupClientImage');
  });

  it('repository-multiple-digests lists every location with its digest', () => {
    const f = result.findings.find((x) => x.rule === 'repository-multiple-digests' && x.file === OSC)!;
    expect(f.message).toContain(`${OSC} key objectstorage.controller.image`);
    expect(f.message).toContain(`${SWFS} key seaweedfs.cosi.image`);
    expect(f.message).toContain('sha256:111111111111…');
    expect(f.message).toContain('sha256:222222222222…');
    expect(f.related).toEqual([{ file: SWFS, line: 9, column: 10, message: 'ghcr.io/acme/objectstorage-controller@sha256:222222222222…' }]);
  });

  it('lockstep-mismatch names the producer and both values', () => {
    const f = result.findings.find((x) => x.rule === 'lockstep-mismatch')!;
    expect(f.message).toContain('packages/core/platform/Makefile:image');
    expect(f.message).toContain('v1.4.0-rc.2');
    expect(f.message).toContain('v1.5.0');
    expect(f.related?.map((r) => r.file)).toEqual([PLATFORM]);
  });

  it('multiple-producers names both producers', () => {
    const f = result.findings.find((x) => x.rule === 'multiple-producers')!;
    expect(f.evidence).toEqual({ producers: ['packages/core/platform/Makefile:image', 'packages/system/dashboard/Makefile:image'] });
  });

  it('producer-not-built names the pins that never refresh', () => {
    const f = result.findings.find((x) => x.rule === 'producer-not-built')!;
    expect(f.message).toContain(`${KILO} key kilo.image`);
    expect(f.message).toContain('Makefile:build');
  });

  it('floating-tag words a digest-carrying latest differently from a bare latest', () => {
    const [inst, mc] = result.findings.filter((x) => x.rule === 'floating-tag');
    expect(inst!.message).toContain('the digest fixes the bytes');
    expect(mc!.message).toContain('names no version');
  });
});

describe('negative cases', () => {
  it('a clean tree has no findings', () => {
    const clean = [pin(OSC, 4, `ghcr.io/acme/objectstorage-controller:v1.5.0@${D1}`, { keyPath: 'objectstorage.controller.image' })];
    const p = producer('packages/system/objectstorage-controller/Makefile', 'image', [write(OSC, 'objectstorage.controller.image', 'osc')]);
    expect(lint({ pins: clean, model: model([p]), config: config() }).findings).toEqual([]);
  });

  it('third-party pins are not subject to first-party rules', () => {
    const third = [pin(BSC, 8, 'docker.io/library/busybox:latest', { keyPath: 'x.busybox' }), pin(BSC, 9, 'quay.io/x/y:1', { keyPath: 'x.y' })];
    expect(lint({ pins: third, model: model([]), config: config() }).findings).toEqual([]);
  });

  it('the same repository at one digest in many places is fine', () => {
    const same = [pin(OSC, 4, `ghcr.io/acme/x:v1@${D1}`, { keyPath: 'a.image' }), pin(SWFS, 4, `ghcr.io/acme/x:v1@${D1}`, { keyPath: 'b.image' })];
    const p = producer('M', 'image', [write(OSC, 'a.image', 'r'), write(SWFS, 'b.image', 'r')]);
    expect(lint({ pins: same, model: model([p]), config: config() }).findings).toEqual([]);
  });

  it('writes with different refIds in one producer are not a lockstep group', () => {
    const two = [pin(OSC, 4, `ghcr.io/acme/x:v1@${D1}`, { keyPath: 'a.image' }), pin(OSC, 5, `ghcr.io/acme/y:v2@${D2}`, { keyPath: 'b.image' })];
    const p = producer('M', 'image', [write(OSC, 'a.image', 'x'), write(OSC, 'b.image', 'y')]);
    expect(lint({ pins: two, model: model([p]), config: config() }).findings).toEqual([]);
  });

  it('one producer writing one key twice is one producer', () => {
    const one = [pin(OSC, 4, `ghcr.io/acme/x:v1@${D1}`, { keyPath: 'a.image' })];
    const p = producer('M', 'image', [write(OSC, 'a.image', 'x'), write(OSC, 'a.image.tag', 'x')]);
    expect(lint({ pins: one, model: model([p]), config: config() }).findings).toEqual([]);
  });
});

describe('stamp matching', () => {
  it('a split map pin is stamped by writes to its fields', () => {
    const split = [pin(OSC, 4, `ghcr.io/acme/x:v1@${D1}`, { keyPath: 'a.image', shape: 'yaml-split' })];
    const p = producer('M', 'image', [write(OSC, '.a.image.tag', 'x'), write(OSC, '.a["image"].digest', 'x')]);
    expect(lint({ pins: split, model: model([p]), config: config() }).findings).toEqual([]);
  });

  it('a write to a sibling key does not stamp the pin', () => {
    const p1 = [pin(OSC, 4, `ghcr.io/acme/x:v1@${D1}`, { keyPath: 'a.image' })];
    const p = producer('M', 'image', [write(OSC, 'a.imageTag', 'x')]);
    expect(byRule(lint({ pins: p1, model: model([p]), config: config() }).findings)).toEqual({ 'no-producer': [`${OSC}#a.image`] });
  });

  it('a sed write that edits some lines stamps only the pins on them: no lockstep-mismatch with the other images of the file', () => {
    const manifest = 'packages/system/capi/files/components.yaml';
    const ps = [
      pin(manifest, 114, 'registry.k8s.io/kas-network-proxy/proxy-agent:v0.31.0', { keyPath: 'spec.agent.default.image', firstParty: false }),
      pin(manifest, 16295, `ghcr.io/acme/kamaji-provider:v0.19.0@${D1}`, { keyPath: 'spec.template.spec.containers[0].image' }),
      pin(TAG, 1, `ghcr.io/acme/kamaji-provider:v0.19.0@${D1}`, { shape: 'tag-file' }),
    ];
    const sed = { ...write(manifest, undefined, 'img'), via: 'sed' as const, lines: [16295] };
    const r = lint({ pins: ps, model: model([producer('packages/system/capi/Makefile', 'image', [write(TAG, undefined, 'img'), sed])]), config: config() });
    expect(r.findings).toEqual([]);
    const wholeFile = lint({ pins: ps, model: model([producer('packages/system/capi/Makefile', 'image', [write(TAG, undefined, 'img'), { ...sed, lines: undefined }])]), config: config() });
    expect(byRule(wholeFile.findings)['lockstep-mismatch']).toBeDefined();
  });

  it('a whole-file write stamps a .tag file pin', () => {
    const t = [pin(TAG, 1, `ghcr.io/acme/x:v1@${D1}`, { shape: 'tag-file' })];
    expect(lint({ pins: t, model: model([producer('M', 'image', [write(TAG, undefined, 'x')])]), config: config() }).findings).toEqual([]);
  });
});

describe('third-party-missing-digest', () => {
  const third = [pin(BSC, 8, 'docker.io/library/busybox:1.37.0', { keyPath: 'x.busybox' }), pin(BSC, 9, `docker.io/library/alpine:3@${D1}`, { keyPath: 'x.alpine' })];
  it('is off by default', () => {
    expect(lint({ pins: third, model: model([]), config: config() }).findings).toEqual([]);
  });
  it('fires on tag-only third-party pins when enabled, at the configured level', () => {
    const r = lint({ pins: third, model: model([]), config: config({ rules: { 'third-party-missing-digest': 'note' } }) });
    expect(r.findings.map((f) => [f.rule, f.severity, f.pin?.keyPath])).toEqual([['third-party-missing-digest', 'note', 'x.busybox']]);
  });
});

describe('rule levels from config', () => {
  const p = [pin(MC, 2, 'ghcr.io/acme/migration-controller:latest', { keyPath: 'm.image' })];
  const m = model([producer('M', 'image', [write(MC, 'm.image', 'x')])]);
  it('overrides a severity', () => {
    const r = lint({ pins: p, model: m, config: config({ rules: { 'floating-tag': 'warning' } }) });
    expect(r.findings.map((f) => [f.rule, f.severity])).toEqual([
      ['first-party-missing-digest', 'error'],
      ['floating-tag', 'warning'],
    ]);
  });
  it('turns a rule off', () => {
    const r = lint({ pins: p, model: m, config: config({ rules: { 'floating-tag': 'off' } }) });
    expect(r.findings.map((f) => f.rule)).toEqual(['first-party-missing-digest']);
  });
});

describe('what could not be read', () => {
  const extra = 'packages/system/multus/templates/multus-daemonset-thick.yml';
  const broken = 'packages/system/broken/values.yaml';
  const scraped = [pin(extra, 40, `ghcr.io/acme/multus:v1@${D1}`, { shape: 'text', scraped: true }), pin(broken, 3, `ghcr.io/acme/multus:v1@${D1}`, { shape: 'text', scraped: true })];
  const m = model([producer('M', 'image', [write(extra, undefined, 'x'), write(broken, undefined, 'x')])]);
  const skipped = [
    { file: extra, code: 'yaml-parse-error', reason: 'Helm conditional', scraped: true },
    { file: broken, code: 'yaml-parse-error', reason: 'bad indentation', line: 3, scraped: true },
    { file: 'packages/x/files/components.gz', code: 'binary-file', reason: 'binary content' },
  ];

  it('reports undeclared scraped files and unreadable files, not declared extraFiles', () => {
    const r = lint({ pins: scraped, model: m, config: config({ extraFiles: [extra] }), skipped });
    expect(r.findings.map((f) => [f.rule, f.file, f.line])).toEqual([
      ['unparsed-file', 'packages/system/broken/values.yaml', 3],
      ['unparsed-file', 'packages/x/files/components.gz', undefined],
    ]);
    expect(r.findings[1]!.message).toContain('binary-file');
  });

  it('a declared extraFiles entry that names no file says to fix the entry, not the syntax', () => {
    const gone = [{ file: extra, code: 'extra-file-missing', reason: 'declared in extraFiles but does not exist' }];
    const r = lint({ pins: [], model: model([]), config: config({ extraFiles: [extra] }), skipped: [...gone, skipped[2]!] });
    expect(r.findings.map((f) => [f.rule, f.file, f.hint])).toEqual([
      ['unparsed-file', extra, expect.stringContaining('Fix or remove the `extraFiles` entry')],
      ['unparsed-file', 'packages/x/files/components.gz', expect.stringContaining('Fix the syntax error')],
    ]);
  });

  it('declared extraFiles may be globs', () => {
    const m1 = model([producer('M', 'image', [write(extra, undefined, 'x')])]);
    const r = lint({ pins: scraped.slice(0, 1), model: m1, config: config({ extraFiles: ['packages/*/multus/templates/*.yml'] }), skipped: skipped.slice(0, 1) });
    expect(r.findings).toEqual([]);
  });

  it('a scraped pin in a file skipped does not mention is still reported', () => {
    const m2 = model([producer('M', 'image', [write(broken, undefined, 'x')])]);
    const r = lint({ pins: scraped.slice(1), model: m2, config: config() });
    expect(r.findings.map((f) => [f.rule, f.file])).toEqual([['unparsed-file', broken]]);
  });

  it('scan problems: ref problems are invalid-ref, others unparsed-file', () => {
    const problems = [
      { file: BSC, line: 12, column: 3, code: 'invalid-ref', reason: 'a digest must look like sha256:<64 hex>; saw "ghcr.io/acme/x@sha256:abc"' },
      { file: BSC, line: 14, code: 'incomplete-ref', reason: 'gpu.vgpuManager stores an image as separate keys but its repository is empty' },
      { file: BSC, line: 20, code: 'yaml-parse-error', reason: 'bad indentation of a mapping entry' },
      { file: TAG, line: 1, code: 'empty-tag-file', reason: 'the file is empty' },
    ];
    const r = lint({ pins: [], model: model([]), config: config(), problems });
    expect(r.findings.map((f) => [f.rule, f.file, f.line, f.severity])).toEqual([
      ['invalid-ref', TAG, 1, 'warning'],
      ['invalid-ref', BSC, 12, 'warning'],
      ['invalid-ref', BSC, 14, 'warning'],
      ['unparsed-file', BSC, 20, 'warning'],
    ]);
    expect(r.findings[1]!.message).toBe('a digest must look like sha256:<64 hex>; saw "ghcr.io/acme/x@sha256:abc"');
    expect(r.findings[2]!.message).toMatch(/^incomplete-ref: gpu\.vgpuManager/);
  });

  it('a FROM whose ARG every build of the Dockerfile passes is no finding (getsentry/self-hosted: compose build.args)', () => {
    const { problems } = collectDockerfile('ARG BASE_IMAGE\nFROM "${BASE_IMAGE}"\nARG OTHER\nFROM ${OTHER}\n', { file: 'clickhouse/Dockerfile', isFirstParty: () => false });
    expect(problems.map((p) => p.code)).toEqual(['unresolved-ref', 'unresolved-ref']);
    const recipe = (command: string) => ({ kind: 'compose' as const, makefile: 'docker-compose.yml', target: 'services.clickhouse', line: 3, dockerfile: 'clickhouse/Dockerfile', context: 'clickhouse', repositories: [], stamps: [], command });
    const run = (...commands: string[]) => lint({ pins: [], model: { ...model([]), recipes: commands.map(recipe) }, config: config(), problems }).findings.map((f) => f.line);
    // no recipe builds it: both FROMs are findings
    expect(run()).toEqual([2, 4]);
    // every build passes BASE_IMAGE (quoted or not) and OTHER: none; one build that leaves OTHER to run time keeps line 4
    expect(run('docker buildx build --build-arg BASE_IMAGE=altinity/clickhouse-server:25.8 --build-arg "OTHER=alpine:3" ./clickhouse')).toEqual([]);
    expect(run('docker buildx build --build-arg BASE_IMAGE=a:1 --build-arg OTHER=b:1 .', 'docker buildx build --build-arg BASE_IMAGE=a:1 --build-arg OTHER=⟨expr steps.x.outputs.y⟩ .')).toEqual([4]);
  });

  it('build model problems are findings, not crashes', () => {
    const problems = [
      { file: 'packages/a/Makefile', line: 7, code: 'make-syntax', reason: 'missing separator' },
      { file: 'packages/b/Makefile', line: 3, code: 'write-missing-file', reason: 'writes packages/b/values.yaml, which does not exist' },
    ];
    const r = lint({ pins: [], model: model([], problems), config: config() });
    expect(r.findings.map((f) => [f.rule, f.file, f.line])).toEqual([
      ['build-recipe-problem', 'packages/a/Makefile', 7],
      ['build-recipe-problem', 'packages/b/Makefile', 3],
    ]);
    expect(r.findings[1]!.message).toContain('does not exist');
  });
});

describe('multiple-producers and copies', () => {
  const TAGF = 'packages/extra/seaweedfs/images/objectstorage-sidecar.tag';
  const SRC = 'packages/system/seaweedfs/values.yaml';
  const pins2 = [
    pin(SRC, 3, `ghcr.io/acme/sidecar:v1@${D1}`, { keyPath: 'seaweedfs.cosi.sidecar.image' }),
    pin(TAGF, 1, `ghcr.io/acme/sidecar:v1@${D1}`, { shape: 'tag-file' }),
  ];
  const copy = (refId: string) => ({ ...write(TAGF, undefined, refId), via: 'redirect' as const });
  const sidecar = producer('M', 'image-sidecar', [write(SRC, 'seaweedfs.cosi.sidecar.image', 's'), copy('s')]);

  it('a target that only copies the key another producer of the pin stamps is not a rival', () => {
    const controller = producer('M', 'image-controller', [copy(`copy-of:${SRC}#seaweedfs.cosi.sidecar.image`)]);
    const r = lint({ pins: pins2, model: model([controller, sidecar]), config: config() });
    expect(r.findings).toEqual([]);
  });

  it('a copy of a key nobody else stamps is a rival', () => {
    const controller = producer('M', 'image-controller', [copy('copy-of:elsewhere.yaml#x.image')]);
    const r = lint({ pins: pins2, model: model([controller, sidecar]), config: config() });
    expect(byRule(r.findings)).toEqual({ 'multiple-producers': [`${TAGF}:1`] });
  });
});

describe('build-recipe-assumption', () => {
  it('guesses are notes, real problems warnings', () => {
    const problems = [
      { file: 'hack/common-envs.mk', line: 2, code: 'make-condition-assumed', reason: 'cannot decide "ifeq ($(shell uname),Darwin)"; took the first branch' },
      { file: 'packages/a/Makefile', line: 7, code: 'make-missing-separator', reason: 'missing separator' },
    ];
    const r = lint({ pins: [], model: model([], problems), config: config() });
    expect(r.findings.map((f) => [f.rule, f.severity])).toEqual([
      ['build-recipe-assumption', 'note'],
      ['build-recipe-problem', 'warning'],
    ]);
  });
});

describe('producer-not-built and dead recipes', () => {
  const ghost = 'packages/extra/monitoring/images/grafana.tag';
  const dead = producer('packages/extra/monitoring/Makefile', 'image', [write(ghost, undefined, 'g', 23)], false);
  it('a dead recipe whose every write is already a build problem is left to build-recipe-problem', () => {
    const problems = [{ file: 'packages/extra/monitoring/Makefile', line: 23, code: 'producer-target-missing', reason: `writes "${ghost}", which does not exist` }];
    expect(lint({ pins: [], model: model([dead], problems), config: config() }).findings.map((f) => f.rule)).toEqual(['build-recipe-problem']);
  });
  it('an unbuilt producer with no pin found but an unbroken write is still reported', () => {
    expect(lint({ pins: [], model: model([dead]), config: config() }).findings.map((f) => f.rule)).toEqual(['producer-not-built', 'write-without-pin']);
  });
});
