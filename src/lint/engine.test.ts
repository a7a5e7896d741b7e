import { describe, expect, it } from 'vitest';
import { baselineOf, parseBaseline, serializeBaseline } from './baseline.js';
import { lint, type LintInput } from './engine.js';
import { config, D1, model, pin, producer, write } from '../../test/support/builders.js';
import { exitCodeFor } from './levels.js';

const FILE = 'packages/system/bsc/values.yaml';
const TEXT = [
  'backupStrategyController:', // 1
  '  image: ghcr.io/acme/bsc:v1@sha256:1111', // 2
  '  # pinwatch-ignore first-party-missing-digest the producer lands in #4300', // 3
  '  redisBackupClientImage: ghcr.io/acme/redis-backup:v1.6.0', // 4
  '  chBackupClientImage: ghcr.io/acme/ch:v1 # pinwatch-ignore first-party-missing-digest', // 5
  '  latestImage: ghcr.io/acme/mc:latest # pinwatch-ignore floting-tag typo', // 6
  '  # pinwatch-ignore no-producer nothing here any more', // 7
  '  other: 1', // 8
].join('\n');

function input(over: Partial<LintInput> = {}): LintInput {
  const pins = [
    pin(FILE, 2, `ghcr.io/acme/bsc:v1@${D1}`, { keyPath: 'backupStrategyController.image' }),
    pin(FILE, 4, 'ghcr.io/acme/redis-backup:v1.6.0', { keyPath: 'backupStrategyController.redisBackupClientImage' }),
    pin(FILE, 5, 'ghcr.io/acme/ch:v1', { keyPath: 'backupStrategyController.chBackupClientImage' }),
    pin(FILE, 6, 'ghcr.io/acme/mc:latest', { keyPath: 'backupStrategyController.latestImage' }),
  ];
  const p = producer('Makefile', 'image', pins.map((x, i) => write(FILE, x.keyPath, `r${i}`)));
  return { pins, model: model([p]), config: config(), fileText: (f) => (f === FILE ? TEXT : undefined), ...over };
}

describe('inline suppressions', () => {
  const r = lint(input());
  const at = (rule: string, line: number) => r.findings.find((f) => f.rule === rule && f.line === line);

  it('a directive with a reason suppresses the finding below it and keeps it listed', () => {
    expect(at('first-party-missing-digest', 4)?.suppressed).toEqual({ kind: 'inline', reason: 'the producer lands in #4300' });
  });

  it('a directive without a reason still suppresses, and is itself an error', () => {
    expect(at('first-party-missing-digest', 5)?.suppressed).toEqual({ kind: 'inline' });
    const f = at('suppression-without-reason', 5)!;
    expect(f.severity).toBe('error');
    expect(f.suppressed).toBeUndefined();
  });

  it('a misspelt rule suppresses nothing and is reported', () => {
    expect(at('floating-tag', 6)?.suppressed).toBeUndefined();
    expect(at('suppression-unknown-rule', 6)?.message).toContain('"floting-tag"');
  });

  it('a directive with nothing to suppress is reported as unused', () => {
    expect(at('unused-suppression', 7)?.severity).toBe('note');
    expect(r.findings.filter((f) => f.rule === 'unused-suppression').map((f) => f.line)).toEqual([7]);
  });

  it('suppressed findings do not count for the exit code', () => {
    const withoutDirectives = lint(input({ fileText: () => undefined }));
    expect(withoutDirectives.findings.filter((f) => f.rule === 'first-party-missing-digest' && !f.suppressed)).toHaveLength(3);
    // the reasonless directive and the unsuppressed latest pin still fail
    expect(exitCodeFor(r.findings, 'error')).toBe(1);
    const onlySuppressed = r.findings.filter((f) => f.suppressed);
    expect(onlySuppressed).toHaveLength(2);
    expect(exitCodeFor(onlySuppressed, 'warning')).toBe(0);
  });

  it('findings are sorted by file and line and carry fingerprints', () => {
    const lines = r.findings.map((f) => f.line!);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    expect(r.findings.every((f) => typeof f.fingerprint === 'string' && f.fingerprint.length >= 32)).toBe(true);
  });
});

describe('baseline', () => {
  const first = lint(input({ fileText: () => undefined }));
  const baseline = parseBaseline(serializeBaseline(baselineOf(first.findings)), 'b.json');

  it('records every finding once, deterministically', () => {
    expect(baseline.findings.map((e) => e.rule).sort()).toEqual(['first-party-missing-digest', 'first-party-missing-digest', 'first-party-missing-digest', 'floating-tag']);
    expect(serializeBaseline(baselineOf(first.findings))).toBe(serializeBaseline(baselineOf(lint(input({ fileText: () => undefined })).findings)));
    expect(baseline.findings[0]).toMatchObject({ file: FILE, repository: expect.stringMatching(/^ghcr\.io\/acme\//), keyPath: expect.any(String) });
  });

  it('suppresses the same findings after unrelated edits move their lines', () => {
    const moved = input({ fileText: () => undefined });
    moved.pins = moved.pins.map((p) => ({ ...p, line: p.line + 10 }));
    const r = lint({ ...moved, baseline });
    expect(r.findings.length).toBe(4);
    expect(r.findings.every((f) => f.suppressed?.kind === 'baseline')).toBe(true);
    expect(exitCodeFor(r.findings, 'warning')).toBe(0);
    expect(r.baseline).toEqual({ entries: 4, matched: 4, unused: [] });
  });

  it('fails only on new findings and names the entries that no longer match', () => {
    const next = input({ fileText: () => undefined });
    next.pins = [...next.pins.slice(0, 3), pin(FILE, 9, 'ghcr.io/acme/new:v2', { keyPath: 'backupStrategyController.newImage' })];
    const p = producer('Makefile', 'image', next.pins.map((x, i) => write(FILE, x.keyPath, `r${i}`)));
    const r = lint({ ...next, model: model([p]), baseline });
    const active = r.findings.filter((f) => !f.suppressed);
    expect(active.map((f) => [f.rule, f.pin?.keyPath])).toEqual([['first-party-missing-digest', 'backupStrategyController.newImage']]);
    expect(r.baseline?.unused.map((e) => e.keyPath).sort()).toEqual(['backupStrategyController.latestImage', 'backupStrategyController.latestImage']);
    expect(exitCodeFor(r.findings)).toBe(1);
  });

  it('rejects a malformed baseline with the expected form', () => {
    expect(() => parseBaseline('{"findings": 3}', 'b.json')).toThrow(/expected \{"version": 1/);
    expect(() => parseBaseline('nope', 'b.json')).toThrow(/not JSON/);
  });
});

describe('exitCodeFor', () => {
  const f = (severity: 'error' | 'warning' | 'note', suppressed = false) => ({ rule: 'r', severity, message: 'm', ...(suppressed ? { suppressed: { kind: 'baseline' as const } } : {}) });
  it.each([
    [[f('warning')], 'error', 0],
    [[f('warning')], 'warning', 1],
    [[f('error')], 'never', 0],
    [[f('error', true)], 'warning', 0],
    [[f('note')], 'warning', 0],
    [[f('error')], 'error', 1],
  ] as const)('%j at --fail-on %s → %i', (findings, failOn, code) => {
    expect(exitCodeFor(findings, failOn)).toBe(code);
  });
});

describe('misspeltRuleNotes', () => {
  it('flags near-misses of lint rule ids and leaves other commands\' ids alone', async () => {
    const { misspeltRuleNotes } = await import('./levels.js');
    expect(misspeltRuleNotes({ rules: { 'floting-tag': 'off', 'stale-image': 'warning', 'no-producer': 'note' } })).toEqual([
      'pinwatch.yaml rules: "floting-tag" is not a lint rule and is ignored; did you mean "floating-tag"?',
    ]);
  });
});

describe('extraFindings (check merges stale findings)', () => {
  const stale = {
    rule: 'stale-image',
    severity: 'warning' as const,
    message: 'bsc was built before 3 merged commits',
    file: FILE,
    line: 2,
    pin: pin(FILE, 2, `ghcr.io/acme/bsc:v1@${D1}`, { keyPath: 'backupStrategyController.image' }),
  };
  const text = TEXT.replace('  image: ghcr.io/acme/bsc:v1@sha256:1111', '  image: ghcr.io/acme/bsc:v1@sha256:1111 # pinwatch-ignore stale-image waiting for the release');

  it('are suppressed by directives naming their rule, which then count as used', () => {
    const r = lint(input({ extraFindings: [stale], fileText: (f) => (f === FILE ? text : undefined) }));
    const s = r.findings.find((f) => f.rule === 'stale-image')!;
    expect(s.suppressed).toEqual({ kind: 'inline', reason: 'waiting for the release' });
    expect(s.fingerprint).toMatch(/^[0-9a-f]{32}$/);
    expect(r.findings.filter((f) => f.rule === 'unused-suppression' && f.line === 2)).toEqual([]);
    expect(r.findings.filter((f) => f.rule === 'suppression-unknown-rule')).toHaveLength(1); // only the floting-tag typo
  });

  it('follow rules: overrides and the baseline', () => {
    const off = lint(input({ extraFindings: [stale], config: config({ rules: { 'stale-image': 'off' } }) }));
    expect(off.findings.some((f) => f.rule === 'stale-image')).toBe(false);
    const up = lint(input({ extraFindings: [stale], config: config({ rules: { 'stale-image': 'error' } }) }));
    expect(up.findings.find((f) => f.rule === 'stale-image')!.severity).toBe('error');
    const base = baselineOf(lint(input({ extraFindings: [stale], fileText: () => undefined })).findings);
    const again = lint(input({ extraFindings: [stale], fileText: () => undefined, baseline: base }));
    expect(again.findings.find((f) => f.rule === 'stale-image')!.suppressed).toEqual({ kind: 'baseline', reason: 'in the baseline' });
  });
});
