/**
 * `--format gitlab`: GitLab's Code Quality report, validated against a JSON Schema
 * written from the Code Climate spec (schemas/gitlab-code-quality.schema.json) on
 * real lint/check/stale output of the demo repository, with mutations the schema
 * must reject, and the formatter's rules table-driven.
 */
import { Ajv } from 'ajv';
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoRepo } from '../../src/demo/index.js';
import type { Finding } from '../../src/model/index.js';
import { codeQualityIssues, formatFindingsGitlab, NO_FILE_PATH } from '../../src/report/findings-gitlab.js';
import { runCli } from '../support/io.js';

type Doc = Record<string, any>;
const schema = JSON.parse(readFileSync(new URL('../../schemas/gitlab-code-quality.schema.json', import.meta.url), 'utf8')) as Doc;
const ajv = new Ajv({ strict: true, allErrors: true });
const validate = ajv.compile(schema);
const valid = (doc: unknown) => {
  const ok = validate(doc);
  return ok ? 'valid' : ajv.errorsText(validate.errors);
};

let demo: string;
beforeAll(() => {
  demo = buildDemoRepo();
});
afterAll(() => rmSync(demo, { recursive: true, force: true }));

describe('--format gitlab on the demo repository', () => {
  it.each([['lint'], ['check'], ['stale']])('pinwatch %s --format gitlab is a valid Code Quality report with one issue per active finding', async (command) => {
    const r = await runCli(['--repo', demo, command, '--format', 'gitlab']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.out) as Doc[];
    expect(valid(doc)).toBe('valid');
    expect(doc.length).toBeGreaterThan(0);
    if (command !== 'stale') {
      const json = JSON.parse((await runCli(['--repo', demo, command, '--format', 'json'])).out) as { findings: { suppressed?: unknown }[] };
      expect(doc).toHaveLength(json.findings.filter((f) => !f.suppressed).length);
    }
    expect(new Set(doc.map((i) => i.fingerprint)).size).toBe(doc.length);
    for (const i of doc) {
      expect(i.check_name).toMatch(/^pinwatch\/[a-z-]+$/);
      expect(readFileSync(`${demo}/${i.location.path}`, 'utf8').split('\n').length).toBeGreaterThanOrEqual(i.location.lines.begin);
    }
    if (command !== 'lint') expect(doc.some((i) => i.check_name === 'pinwatch/stale-image' && i.severity === 'major')).toBe(true);
  });

  it('the schema is not vacuous: each mutation of a real report is rejected', async () => {
    const doc = JSON.parse((await runCli(['--repo', demo, 'check', '--format', 'gitlab'])).out) as Doc[];
    const mutations: Record<string, (d: Doc) => void> = {
      'no description': (d) => delete d.description,
      'no fingerprint': (d) => delete d.fingerprint,
      'severity error (not a Code Climate severity)': (d) => (d.severity = 'error'),
      'absolute path': (d) => (d.location.path = '/etc/passwd'),
      'line 0': (d) => (d.location.lines.begin = 0),
      'no lines': (d) => delete d.location.lines,
      'unknown category': (d) => (d.categories = ['Stale']),
      'type finding': (d) => (d.type = 'finding'),
    };
    for (const [what, mutate] of Object.entries(mutations)) {
      const copy = structuredClone(doc);
      mutate(copy[0]!);
      expect(valid(copy), what).not.toBe('valid');
    }
  });
});

describe('codeQualityIssues', () => {
  const f = (over: Partial<Finding>): Finding => ({ rule: 'floating-tag', severity: 'error', message: 'm', ...over });
  it.each<[string, Finding, Partial<Record<string, unknown>>]>([
    ['error → major', f({ file: 'a.yaml', line: 3, fingerprint: 'x1' }), { severity: 'major', location: { path: 'a.yaml', lines: { begin: 3 } }, fingerprint: 'x1' }],
    ['warning → minor', f({ severity: 'warning', file: 'a.yaml', line: 1, fingerprint: 'x2' }), { severity: 'minor' }],
    ['note → info', f({ severity: 'note', file: 'a.yaml', line: 1, fingerprint: 'x3' }), { severity: 'info' }],
    ['no file → the config, line 1', f({ fingerprint: 'x4' }), { location: { path: NO_FILE_PATH, lines: { begin: 1 } } }],
    ['a stale rule is Security', f({ rule: 'stale-image', file: 'v.yaml', line: 2, fingerprint: 'x5' }), { categories: ['Security'], check_name: 'pinwatch/stale-image' }],
    ['the hint is the body', f({ file: 'a.yaml', line: 1, hint: 'pin it', fingerprint: 'x6' }), { content: { body: 'Fix: pin it' } }],
  ])('%s', (_name, finding, want) => {
    const [issue] = codeQualityIssues([finding]);
    expect(issue).toMatchObject(want);
    expect(valid([issue])).toBe('valid');
  });
  it('suppressed findings are left out; repeated fingerprints are made unique, the first kept', () => {
    const out = codeQualityIssues([f({ fingerprint: 'same', file: 'a', line: 1 }), f({ fingerprint: 'same', file: 'a', line: 1 }), f({ fingerprint: 'gone', suppressed: { kind: 'baseline' } })]);
    expect(out.map((i) => i.fingerprint)).toEqual(['same', expect.stringMatching(/^[0-9a-f]{32}$/)]);
    expect(out[1]!.fingerprint).not.toBe('same');
  });
  it('an empty report is an empty array (GitLab reads it as no issues)', () => {
    expect(formatFindingsGitlab([])).toBe('[]\n');
  });
});
