/** The HTML report as a pure function: section order, escaping, one chart bar per stale image, the empty report. */
import { describe, expect, it } from 'vitest';
import type { Finding, Pin } from '../model/index.js';
import type { StaleImage, StaleReport } from '../stale/types.js';
import { escapeHtml, formatHtmlReport, type HtmlReportInput } from './html.js';

const HOSTILE = `<script>alert(1)</script> "&' fix`;
const HOSTILE_FILE = `charts/<script>x</script>"&'.yaml`;

function image(name: string, status: StaleImage['status'], extra: Partial<StaleImage> = {}): StaleImage {
  return {
    image: name,
    repository: `ghcr.io/acme/${name}`,
    digest: `sha256:${'a'.repeat(64)}`,
    tags: ['v1.0.0'],
    status,
    provenance: [],
    unshipped: [],
    cherryPicked: [],
    pins: [{ file: `packages/${name}/values.yaml`, line: 3 }],
    inputs: { count: 1, patterns: [], ignore: [], steps: [] },
    ...extra,
  };
}

const staleImg = (name: string, days: number, subject = `fix(${name}): requeue (#42)`) =>
  image(name, 'stale', {
    builtFrom: { commit: 'b'.repeat(40), method: 'digest-history' },
    unshipped: [{ commit: 'c'.repeat(40), date: '2026-06-24T10:00:00Z', subject, pr: 42, type: 'fix', fix: 'type fix', paths: [] }],
    oldestUnshipped: { commit: 'c'.repeat(40), date: '2026-06-24T10:00:00Z', ageDays: days },
  });

function pin(file: string, name: string, keyPath?: string): Pin {
  return {
    file,
    line: 4,
    column: 10,
    ...(keyPath ? { keyPath } : {}),
    shape: 'yaml-string',
    spans: [],
    raw: `ghcr.io/acme/${name}:v1`,
    ref: { domain: 'ghcr.io', path: `acme/${name}`, name: `ghcr.io/acme/${name}`, tag: 'v1' },
    form: 'tag',
    firstParty: true,
  };
}

const finding = (rule: string, severity: Finding['severity'], file: string, message: string, extra: Partial<Finding> = {}): Finding => ({ rule, severity, file, line: 7, message, hint: 'pin a digest', ...extra });

function input(over: Partial<HtmlReportInput> = {}, images: StaleImage[] = []): HtmlReportInput {
  const stale: StaleReport & { notes?: string[] } = { head: 'd'.repeat(40), shallow: false, images, warnings: [], gitProcesses: 3, notes: [] };
  return { repo: '/tmp/acme', generatedAt: '2026-11-30T08:00:00.000Z', stale, findings: [], pins: [], ...over };
}

const count = (html: string, re: RegExp) => (html.match(re) ?? []).length;

describe('formatHtmlReport', () => {
  const images = [staleImg('billing', 158, HOSTILE), image('gateway', 'current', { builtFrom: { commit: 'e'.repeat(40), method: 'git-tag' } }), staleImg('backup', 12), image('migration', 'unknown', { reason: 'no producer builds it' })];
  const findings = [
    finding('floating-tag', 'error', HOSTILE_FILE, 'tag "latest" moves'),
    finding('floating-tag', 'error', 'b.yaml', 'tag latest'),
    finding('no-producer', 'warning', 'c.yaml', 'nobody stamps it'),
    finding('no-producer', 'error', 'd.yaml', 'suppressed one', { suppressed: { kind: 'inline', reason: 'dev' } }),
  ];
  const html = formatHtmlReport(input({ findings, pins: [pin(HOSTILE_FILE, 'billing', 'billing.image'), pin('x.yaml', 'backup'), { ...pin('y.yaml', 'lib'), firstParty: false }] }, images));

  it('is one self-contained document: lang, charset, inline style, no script, no external resource', () => {
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link|@import|url\(|src=/i);
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('puts the sections in order: header, merged-but-not-shipped, chart, invariants, pins', () => {
    const at = ['<h1>pinwatch report</h1>', 'Merged but not shipped', '<svg', '>Invariants</h2>', '>Pins</h2>'].map((s) => html.indexOf(s));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('header shows HEAD, the time and the counts', () => {
    expect(html).toContain('d'.repeat(40));
    expect(html).toContain('2026-11-30T08:00:00.000Z');
    expect(html).toContain('<li class="status-stale"><strong>2</strong>stale</li>');
    expect(html).toContain('<li class="status-current"><strong>1</strong>current</li>');
    expect(html).toContain('<li class="status-unknown"><strong>1</strong>unknown</li>');
    expect(html).toContain('<li class="sev-error"><strong>2</strong>errors</li>');
    expect(html).toContain('<li class="sev-warning"><strong>1</strong>warnings</li>');
    expect(html).toContain('1 suppressed (1 inline');
  });

  it('escapes every string from the repository', () => {
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &quot;&amp;&#39; fix');
    expect(html).toContain('charts/&lt;script&gt;x&lt;/script&gt;&quot;&amp;&#39;.yaml:7');
    expect(html).toContain('charts/&lt;script&gt;x&lt;/script&gt;&quot;&amp;&#39;.yaml:4');
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('lists the images with status, built-from and unshipped counts, and each stale image’s commits', () => {
    expect(html).toMatch(/<th scope="row"><code>billing<\/code><\/th><td><span class="badge status-stale">stale<\/span><\/td><td><code title="b{40}">b{10}<\/code> <span class="muted">\(digest-history\)<\/span><\/td><td class="num">1 \(1 fix\)<\/td><td class="num">158d<\/td>/);
    expect(html).toContain('<td class="num">#42</td>');
    expect(count(html, /unshipped commit\(s\) in /g)).toBe(2);
    expect(html).toContain('no producer builds it');
  });

  it('draws one bar per stale image, each with a title', () => {
    expect(count(html, /<rect class="bar"/g)).toBe(2);
    expect(html).toMatch(/<rect class="bar" x="230" y="8" width="440"[^>]*><title>billing: oldest unshipped commit is 158 day\(s\) old \(2026-06-24\)<\/title><\/rect>/);
    expect(html).toMatch(/<rect class="bar" x="230" y="34" width="33"[^>]*><title>backup: /);
  });

  it('groups active findings by rule and leaves suppressed ones out', () => {
    expect(count(html, /<h3><code>floating-tag<\/code> <span class="muted">\(2\)<\/span><\/h3>/g)).toBe(1);
    expect(html).toContain('<h3><code>no-producer</code> <span class="muted">(1)</span></h3>');
    expect(html).not.toContain('suppressed one');
    expect(html).toContain('pin a digest');
  });

  it('lists only first-party pins, by repository', () => {
    expect(html).toContain('<h3><code>ghcr.io/acme/billing</code> <span class="muted">(1)</span></h3>');
    expect(html).toContain('<code>billing.image</code>');
    expect(html).not.toContain('ghcr.io/acme/lib');
  });

  it('renders an empty report with a sentence per empty section', () => {
    const empty = formatHtmlReport(input());
    expect(empty).toContain('No first-party images are pinned');
    expect(empty).toContain('No stale images.');
    expect(empty).toContain('No findings: every invariant holds.');
    expect(empty).toContain('No first-party pins.');
    expect(empty).not.toContain('<svg');
    expect(empty.trimEnd().endsWith('</html>')).toBe(true);
  });
});
