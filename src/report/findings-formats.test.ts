import { describe, expect, it } from 'vitest';
import { sarifValidator } from '../../test/support/sarif.js';
import { lint } from '../lint/engine.js';
import { config, D1, D2, model, pin, producer, write } from '../../test/support/builders.js';
import type { Finding } from '../model/index.js';
import { LINT_RULES } from '../rules/catalog.js';
import { escapeData, escapeProperty, formatFindingsGithub, githubAnnotation } from './findings-github.js';
import { findingsJson } from './findings-json.js';
import { formatFindingsMarkdown, markdownCell } from './findings-markdown.js';
import { findingsSarif, FINGERPRINT_KEY } from './findings-sarif.js';
import { formatFindingsText } from './findings-text.js';
import { formatFindings, FINDINGS_FORMATS } from './findings-format.js';

const A = 'packages/a/values.yaml';
const B = 'packages/b dir/values.yaml';
const TEXT_A = 'a:\n  image: ghcr.io/acme/x:v1\n  # pinwatch-ignore floating-tag frozen: vendored, see #12\n  other: ghcr.io/acme/y:latest\n';

function sample(): Finding[] {
  const pins = [
    pin(A, 2, 'ghcr.io/acme/x:v1', { keyPath: 'a.image', column: 10 }),
    pin(A, 4, `ghcr.io/acme/y:latest@${D1}`, { keyPath: 'a.other', column: 10 }),
    pin(B, 3, `ghcr.io/acme/y:v2@${D2}`, { keyPath: 'b.image', column: 12 }),
  ];
  const m = model([producer('packages/a/Makefile', 'image', [write(A, 'a.image', 'x'), write(A, 'a.other', 'y'), write(B, 'b.image', 'z')])]);
  const r = lint({ pins, model: m, config: config(), fileText: (f) => (f === A ? TEXT_A : undefined) });
  // one more, stale-like, from "another command": formatters must not care
  return [...r.findings, { rule: 'stale-image', severity: 'warning', message: 'built from an old commit', file: B, line: 3, fingerprint: 'abc' }];
}

describe('SARIF', () => {
  const findings = sample();
  const log = findingsSarif(findings, { root: '/tmp/repo' }) as any;
  const validate = sarifValidator();

  it('validates against the official SARIF 2.1.0 schema', () => {
    const ok = validate(log);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the schema check can fail: a broken log is rejected', () => {
    const broken = structuredClone(log);
    broken.runs[0].results[0].level = 'fatal';
    broken.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0;
    expect(validate(broken)).toBe(false);
  });

  it('describes every rule with its help, rule page and default level; helpUri only when a docs URL is given', () => {
    const rules = log.runs[0].tool.driver.rules;
    expect(rules.map((r: any) => r.id)).toEqual([...LINT_RULES.map((r) => r.id), 'stale-image']);
    const ft = rules.find((r: any) => r.id === 'floating-tag');
    expect(ft.helpUri).toBeUndefined();
    expect(ft.help.text).toMatch(/\(rule page: docs\/rules\/floating-tag\.md\)$/);
    const linked = JSON.parse(formatFindings('sarif', [], { docsBase: 'https://docs.example.test/rules/' })).runs[0].tool.driver.rules;
    expect(linked.find((r: any) => r.id === 'floating-tag').helpUri).toBe('https://docs.example.test/rules/floating-tag.md');
    expect(ft.defaultConfiguration).toEqual({ level: 'error' });
    expect(ft.shortDescription.text).toContain('latest');
    expect(rules.find((r: any) => r.id === 'third-party-missing-digest').defaultConfiguration).toEqual({ enabled: false, level: 'note' });
  });

  it('results point at file, line and column with ruleIndex and fingerprints', () => {
    const r = log.runs[0].results.find((x: any) => x.ruleId === 'first-party-missing-digest');
    expect(r.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: A, uriBaseId: '%SRCROOT%' }, region: { startLine: 2, startColumn: 10 } });
    expect(log.runs[0].tool.driver.rules[r.ruleIndex].id).toBe('first-party-missing-digest');
    expect(r.partialFingerprints[FINGERPRINT_KEY]).toMatch(/^[0-9a-f]{32}$/);
    expect(r.properties.keyPath).toBe('a.image');
    expect(log.runs[0].originalUriBaseIds['%SRCROOT%'].uri).toBe('file:///tmp/repo/');
  });

  it('encodes paths as URI references', () => {
    const r = log.runs[0].results.find((x: any) => x.ruleId === 'stale-image');
    expect(r.locations[0].physicalLocation.artifactLocation.uri).toBe('packages/b%20dir/values.yaml');
  });

  it('keeps suppressed findings with a suppressions entry', () => {
    const r = log.runs[0].results.find((x: any) => x.ruleId === 'floating-tag');
    expect(r.suppressions).toEqual([{ kind: 'inSource', status: 'accepted', justification: 'frozen: vendored, see #12' }]);
    const multi = log.runs[0].results.filter((x: any) => x.ruleId === 'repository-multiple-digests');
    expect(multi).toHaveLength(2);
    expect(multi[0].relatedLocations[0].physicalLocation.artifactLocation.uri).toBe('packages/b%20dir/values.yaml');
  });
});

describe('GitHub annotations', () => {
  it('escapes data and properties per the workflow-command rules', () => {
    expect(escapeData('100% a\r\nb')).toBe('100%25 a%0D%0Ab');
    expect(escapeProperty('a:b,c%')).toBe('a%3Ab%2Cc%25');
  });

  it('prints one annotation per active finding, notice for notes', () => {
    const f: Finding = { rule: 'floating-tag', severity: 'error', message: 'x: 50%, y', file: 'p/a,b:c.yaml', line: 3, column: 5, hint: 'fix it' };
    expect(githubAnnotation(f)).toBe('::error file=p/a%2Cb%3Ac.yaml,line=3,col=5,title=pinwatch floating-tag::x: 50%25, y%0AFix: fix it');
    expect(githubAnnotation({ rule: 'r', severity: 'note', message: 'm' })).toBe('::notice title=pinwatch r::m');
    const out = formatFindingsGithub(sample());
    expect(out).not.toContain('floating-tag'); // suppressed inline
    expect(out.split('\n').filter((l) => l.startsWith('::'))).toHaveLength(4);
    expect(out).toMatch(/1 suppressed: 1 inline/);
  });
});

describe('text, json, markdown', () => {
  const findings = sample();

  it('text lists active findings with location, fix and related places', () => {
    const text = formatFindingsText(findings, { title: 'pinwatch lint' });
    expect(text).toContain(`${A}:2:10: error [first-party-missing-digest] ghcr.io/acme/x:v1 is pinned without a digest`);
    expect(text).toContain('\n  fix: Have the producer stamp');
    expect(text).toContain(`    see ${B}:3:12: ghcr.io/acme/y@sha256:222222222222…`);
    expect(text).not.toContain('[floating-tag]');
    // the summary first (under the title), saying what is counted but not listed
    expect(text.split('\n').slice(0, 4)).toEqual([
      'pinwatch lint',
      '',
      '4 findings: 3 errors, 1 warning, 0 notes (1 suppressed: 1 inline, 0 by baseline)',
      'the 1 suppressed finding(s) are not listed (--verbose lists them)',
    ]);
  });

  it('text groups findings by rule, errors first, and prints a rule\'s fix once per group', () => {
    const hint = 'Pin the digest: have the producer stamp name@sha256.';
    const f = (file: string, rule: string, severity: Finding['severity'], own?: string): Finding => ({ rule, severity, message: `${rule} in ${file}`, file, line: 1, hint: own ?? hint });
    const text = formatFindingsText([
      f('a.yaml', 'floating-tag', 'warning', 'Pin a version.'),
      f('a.yaml', 'first-party-missing-digest', 'error'),
      f('b.yaml', 'first-party-missing-digest', 'error'),
      f('c.yaml', 'first-party-missing-digest', 'error', 'A finding of its own.'),
    ]);
    expect(text.split('\n')).toEqual([
      '4 findings: 3 errors, 1 warning, 0 notes',
      '',
      '[first-party-missing-digest] 3 errors',
      `  fix: ${hint}`,
      'a.yaml:1: error [first-party-missing-digest] first-party-missing-digest in a.yaml',
      'b.yaml:1: error [first-party-missing-digest] first-party-missing-digest in b.yaml',
      'c.yaml:1: error [first-party-missing-digest] first-party-missing-digest in c.yaml',
      '    fix: A finding of its own.',
      '',
      '[floating-tag] 1 warning',
      '  fix: Pin a version.',
      'a.yaml:1: warning [floating-tag] floating-tag in a.yaml',
      '',
    ]);
  });

  it('text says so when there is nothing', () => {
    expect(formatFindingsText([])).toBe('no findings\n');
  });

  it('json keeps every finding, suppressed ones marked, with a summary', () => {
    const j = JSON.parse(JSON.stringify(findingsJson(findings, { jsonExtra: { baseline: null } }))) as any;
    expect(j.summary).toEqual({ errors: 3, warnings: 1, notes: 0, suppressed: 1, suppressedInline: 1, suppressedByBaseline: 0 });
    expect(j.findings).toHaveLength(5);
    expect(j.findings.find((f: any) => f.rule === 'floating-tag').suppressed).toEqual({ kind: 'inline', reason: 'frozen: vendored, see #12' });
    expect(j).toHaveProperty('baseline', null);
  });

  it('markdown escapes cells and puts suppressed findings in a collapsed section', () => {
    const md = formatFindingsMarkdown([...findings, { rule: 'x', severity: 'note', message: 'a | b\n<c>' }], { title: 'pinwatch lint' });
    expect(md.startsWith('## pinwatch lint: 5 findings: 3 errors, 1 warning, 1 note (1 suppressed')).toBe(true);
    expect(md).toContain('a \\| b<br>&lt;c&gt;');
    expect(md).toContain('<details><summary>1 suppressed</summary>');
    expect(md).toMatch(/\| `floating-tag` \| `packages\/a\/values.yaml:4:10` \| inline: frozen: vendored, see #12 \|/);
    expect(formatFindingsMarkdown(findings, { docsBase: 'https://docs.example.test/rules/' })).toContain('[`floating-tag`](https://docs.example.test/rules/floating-tag.md)');
  });

  it('formatFindings dispatches every format', () => {
    for (const format of FINDINGS_FORMATS) expect(formatFindings(format, findings).length).toBeGreaterThan(10);
  });
});

describe('markdownCell', () => {
  it.each([
    ['a | b', 'a \\| b'],
    ['<script>', '&lt;script&gt;'],
    ['use `tag@sha256:<digest>` here', 'use `tag@sha256:<digest>` here'],
    ['x <y> `<z>` w', 'x &lt;y&gt; `<z>` w'],
    ['line1\nline2', 'line1<br>line2'],
  ])('%j → %j', (input, want) => {
    expect(markdownCell(input)).toBe(want);
  });
});
