/** The HTML report as a pure function: section order, escaping, one chart bar per stale image, the empty report. */
import { describe, expect, it } from 'vitest';
import type { Finding, Pin } from '../model/index.js';
import type { StaleImage, StaleReport } from '../stale/types.js';
import { escapeHtml, formatHtmlReport, groupByPr, imageOrder, timelineSvg, type HtmlReportInput } from './html.js';
import { resolveLinks } from './links.js';

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

  it('lists the images as <details>, stale first by fix count then age, with status, built-from, counts and commits', () => {
    expect(html).toMatch(/<details class="image status-row-stale" id="image-billing">\n<summary><span class="name"><code>billing<\/code><\/span> <span class="badge status-stale">stale<\/span> <span class="unshipped">1 unshipped <span class="badge sev-error">1 fix<\/span><\/span> <span class="age">oldest 158d<\/span> <span class="built">built from <code title="b{40}">b{10}<\/code> <span class="muted">\(digest-history\)<\/span><\/span><\/summary>/);
    const order = [...html.matchAll(/<details class="image status-row-(\w+)" id="image-(\w+)">/g)].map((m) => `${m[2]}:${m[1]}`);
    expect(order).toEqual(['billing:stale', 'backup:stale', 'migration:unknown', 'gateway:current']);
    expect(html).toContain('<td class="num">#42</td>');
    expect(count(html, /unshipped commit\(s\) in /g)).toBe(2);
    expect(html).toContain('no producer builds it');
    expect(html).not.toMatch(/<details[^>]* open/);
  });

  it('draws one bar per stale image, each with a title', () => {
    expect(count(html, /<rect class="bar"/g)).toBe(2);
    expect(html).toMatch(/<rect class="bar" x="230" y="8" width="440"[^>]*><title>billing: oldest unshipped commit is 158 day\(s\) old \(2026-06-24\)<\/title><\/rect>/);
    expect(html).toMatch(/<rect class="bar" x="230" y="34" width="33"[^>]*><title>backup: /);
  });

  it('groups active findings by rule and leaves suppressed ones out', () => {
    expect(count(html, /<summary><code>floating-tag<\/code> <span class="badge sev-error">error<\/span> <span class="muted">\(2\)<\/span><\/summary>/g)).toBe(1);
    expect(html).toContain('<summary><code>no-producer</code> <span class="badge sev-warning">warning</span> <span class="muted">(1)</span></summary>');
    expect(html).not.toContain('suppressed one');
    expect(html).toContain('pin a digest');
  });

  it('lists only first-party pins, by repository', () => {
    expect(html).toContain('<summary><code>ghcr.io/acme/billing</code> <span class="muted">(1)</span></summary>');
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

  it('has a dark mode and declares both colour schemes', () => {
    expect(html).toContain('<meta name="color-scheme" content="light dark">');
    expect(html).toMatch(/@media \(prefers-color-scheme: dark\) \{\s*:root \{ --fg: #e6e8eb;/);
  });

  it('without a remote shows the path and makes no link at all', () => {
    expect(html).toContain('<dt>Repository</dt><dd><code>/tmp/acme</code> <span class="muted">(no web URL');
    expect(html).not.toContain('<a href="http');
  });
});

/** An image whose unshipped commits carry the given PRs (one commit each), `fix` for the ones listed. */
function withPrs(name: string, prs: (number | undefined)[], fixes: number[] = [], days = 30): StaleImage {
  const unshipped = prs.map((pr, n) => ({
    commit: `${(n + 1).toString(16)}${name.length.toString(16)}`.padEnd(40, pr !== undefined ? String(pr % 10) : 'f'),
    date: `2026-0${(n % 9) + 1}-1${n % 10}T10:00:00Z`,
    subject: `change ${pr ?? 'direct'}`,
    ...(pr !== undefined ? { pr } : {}),
    ...(pr !== undefined && fixes.includes(pr) ? { fix: 'type fix', type: 'fix' } : {}),
    paths: [],
  }));
  return image(name, 'stale', { builtFrom: { commit: 'b'.repeat(40), method: 'digest-history', date: '2025-12-01T00:00:00Z' }, unshipped, oldestUnshipped: { commit: unshipped[0]!.commit, date: unshipped[0]!.date, ageDays: days } });
}

describe('the dashboard pieces', () => {
  it('orders images: stale by fix count, then age, then unknown, then current; ties keep input order', () => {
    const images = [image('c', 'current'), withPrs('old', [1], [], 300), withPrs('fixy', [2, 3], [2, 3], 5), image('u', 'unknown'), withPrs('onefix', [4], [4], 9), withPrs('new', [5], [], 2), withPrs('old2', [6], [], 300)];
    expect(imageOrder(images).map((n) => images[n]!.image)).toEqual(['fixy', 'onefix', 'old', 'old2', 'new', 'u', 'c']);
  });

  it('groups unshipped commits by PR across images: most images first, then fixes, then oldest; a commit without a PR stands alone', () => {
    const images = [withPrs('a', [3273, 10, undefined]), withPrs('b', [3273, 11], [11]), withPrs('c', [3273]), image('d', 'current')];
    const groups = groupByPr(images);
    expect(groups.map((g) => [g.pr ?? 'none', g.images.map((n) => images[n]!.image).join(','), g.fix])).toEqual([
      [3273, 'a,b,c', false],
      [11, 'b', true],
      [10, 'a', false],
      ['none', 'a', false],
    ]);
    const html = formatHtmlReport(input({ links: resolveLinks('git@github.com:acme/platform.git') }, images));
    expect(html).toContain('<th scope="row"><a href="https://github.com/acme/platform/pull/3273">#3273</a> is missing from 3 images</th>');
    expect(html).toContain('<a href="#image-a"><code>a</code></a>, <a href="#image-b"><code>b</code></a>, <a href="#image-c"><code>c</code></a>');
    expect(html).toContain('#11</a> is missing from 1 image</th><td><span class="badge sev-error">fix</span>');
    expect(html.indexOf('id="by-pr-h"')).toBeLessThan(html.indexOf('id="stale-h"'));
  });

  it('links commits, PRs, files and HEAD on GitHub, and shows the repository URL instead of the path', () => {
    const img = withPrs('billing', [42]);
    const html = formatHtmlReport(
      input({ links: resolveLinks('https://github.com/acme/platform.git'), headDate: '2026-11-29T17:05:00+01:00', findings: [finding('floating-tag', 'error', 'charts/a b.yaml', 'x')] }, [img]),
    );
    expect(html).toContain('<dt>Repository</dt><dd><a href="https://github.com/acme/platform"><code>https://github.com/acme/platform</code></a></dd>');
    expect(html).toContain(`<dt>HEAD</dt><dd><a href="https://github.com/acme/platform/commit/${'d'.repeat(40)}"><code title="${'d'.repeat(40)}">dddddddddd</code></a> <time datetime="2026-11-29T17:05:00+01:00">2026-11-29 17:05:00 +01:00</time></dd>`);
    expect(html).toContain(`<a href="https://github.com/acme/platform/commit/${img.unshipped[0]!.commit}"><code`);
    expect(html).toContain('<a href="https://github.com/acme/platform/pull/42">#42</a>');
    expect(html).toContain(`<a href="https://github.com/acme/platform/blob/${'d'.repeat(40)}/packages/billing/values.yaml#L3"><code>packages/billing/values.yaml:3</code></a>`);
    expect(html).toContain(`<a href="https://github.com/acme/platform/blob/${'d'.repeat(40)}/charts/a%20b.yaml#L7"><code>charts/a b.yaml:7</code></a>`);
    expect(html).toContain('<h1>pinwatch report — acme/platform</h1>');
    expect(html).not.toContain('/tmp/acme</code>');
    expect(html).not.toMatch(/<link|@import|url\(|src=|<script/i); // links navigate; nothing is loaded
  });

  it('uses GitLab forms on a GitLab remote and configured templates over either', () => {
    const img = withPrs('billing', [7]);
    const gl = formatHtmlReport(input({ links: resolveLinks('ssh://git@gitlab.example.com:2222/grp/sub/app.git') }, [img]));
    expect(gl).toContain('<a href="https://gitlab.example.com/grp/sub/app/-/merge_requests/7">#7</a>');
    expect(gl).toContain(`https://gitlab.example.com/grp/sub/app/-/commit/${img.unshipped[0]!.commit}"`);
    expect(gl).toContain(`https://gitlab.example.com/grp/sub/app/-/blob/${'d'.repeat(40)}/packages/billing/values.yaml#L3"`);
    const custom = formatHtmlReport(input({ links: resolveLinks('/srv/git/app', { repository: 'https://git.acme.test/app', commit: '{repo}/commits/{short}', pr: 'https://review.acme.test/c/{pr}' }) }, [img]));
    expect(custom).toContain(`<a href="https://git.acme.test/app/commits/${img.unshipped[0]!.commit.slice(0, 10)}">`);
    expect(custom).toContain('<a href="https://review.acme.test/c/7">#7</a>');
    expect(custom).not.toContain('/blob/'); // no file template for an unknown host: plain text
    expect(custom).toContain('<code>packages/billing/values.yaml:3</code></p>');
  });

  it('draws a timeline per image: built, stamped, each unshipped commit (fixes filled), now, and the age', () => {
    const img = withPrs('billing', [1, 2], [2], 40);
    img.provenance = [{ method: 'digest-history', answered: true, commit: 'b'.repeat(40), reason: 'r', evidence: { introducedBy: { commit: 'e'.repeat(40), date: '2025-12-02T00:00:00Z' } } }];
    const svg = timelineSvg(img, 'billing', '2026-11-30T08:00:00.000Z', '2026-10-01T00:00:00Z')!;
    expect(svg).toMatch(/^<svg class="timeline"[^>]* role="img" aria-label="Timeline of billing: built from a commit of 2025-12-01, pin stamped 2025-12-02, 2 unshipped commit\(s\)">/);
    expect(count(svg, /<rect class="built"/g)).toBe(1);
    expect(count(svg, /<path class="stamped"/g)).toBe(1);
    expect(count(svg, /<circle class="commit"/g)).toBe(1);
    expect(count(svg, /<circle class="commit fix"/g)).toBe(1);
    expect(svg).toContain('<text x="12" y="68">2025-12-01</text>');
    expect(svg).toContain('>built · stamped</text>'); // one label when the two marks are close
    expect(count(svg, /<line class="head"/g)).toBe(1);
    expect(svg).toContain('<title>HEAD 2026-10-01</title>');
    expect(svg).toContain('>40d behind</text>');
    const xs = [...svg.matchAll(/<circle[^>]* cx="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(xs[0]).toBeLessThan(xs[1]!); // later commits further right
    expect(xs.every((x) => x >= 12 && x <= 620)).toBe(true);
    expect(timelineSvg(image('u', 'unknown'), 'u', '2026-11-30T08:00:00.000Z')).toBeUndefined();
  });
});

describe('the page outline (golden-ish)', () => {
  /** The page reduced to its structure: headings, image rows, groups and link targets, in order. */
  function outline(html: string): string[] {
    const out: string[] = [];
    const text = (h: string) => h.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
    for (const m of html.matchAll(/<h1>(.*?)<\/h1>|<h2[^>]*>(.*?)<\/h2>|<details class="image status-row-(\w+)" id="([^"]+)">\n<summary>(.*?)<\/summary>|<details class="group"><summary>(.*?)<\/summary>|<th scope="row">(.*?)<\/th>|<svg class="(timeline|chart)"|<caption[^>]*>(.*?)<\/caption>/g)) {
      if (m[1] !== undefined) out.push(`h1 ${text(m[1])}`);
      else if (m[2] !== undefined) out.push(`h2 ${text(m[2])}`);
      else if (m[3] !== undefined) out.push(`  image ${m[4]} [${m[3]}] ${text(m[5]!)}`);
      else if (m[6] !== undefined) out.push(`  group ${text(m[6])}`);
      else if (m[7] !== undefined) out.push(`    row ${text(m[7])}`);
      else if (m[8] !== undefined) out.push(`    svg ${m[8]}`);
      else out.push(`    table ${text(m[9]!)}`);
    }
    return out;
  }

  it('dashboard for two stale images sharing a PR, a PR-mode rebuild, an unknown and a current image', () => {
    const a = withPrs('api', [3273, 12], [12], 40);
    const b = withPrs('operator', [3273], [], 90);
    const pr = image('webhook', 'current', { builtFrom: { commit: 'e'.repeat(40), method: 'git-tag', date: '2026-11-01T00:00:00Z' }, rebuild: [{ commit: 'f'.repeat(40), date: '2026-11-29T00:00:00Z', subject: 'feat(webhook): new check', paths: [] }] });
    const html = formatHtmlReport(
      input({ links: resolveLinks('git@github.com:acme/platform.git'), headDate: '2026-11-29T12:00:00Z', findings: [finding('floating-tag', 'error', 'a.yaml', 'tag latest')], pins: [pin('a.yaml', 'api')] }, [pr, b, image('db', 'unknown', { reason: 'no producer' }), a]),
    );
    expect(outline(html)).toEqual([
      'h1 pinwatch report — acme/platform',
      'h2 Rebuild to-do: merged changes by PR',
      '    table 2 merged change(s) not in every image that needs them, most images first: each image listed needs a rebuild and repin',
      '    row #3273 is missing from 2 images',
      '    row #12 is missing from 1 image',
      'h2 Merged but not shipped',
      '  image image-api [stale] api stale 2 unshipped 1 fix oldest 40d built from bbbbbbbbbb (digest-history)',
      '    svg timeline',
      '    table 2 unshipped commit(s) in api',
      '  image image-operator [stale] operator stale 1 unshipped oldest 90d built from bbbbbbbbbb (digest-history)',
      '    svg timeline',
      '    table 1 unshipped commit(s) in operator',
      '  image image-db [unknown] db unknown built from unknown',
      '  image image-webhook [current] webhook current built from eeeeeeeeee (git-tag)',
      '    svg timeline',
      '    table This PR changes the inputs of webhook: its build must rebuild and repin it',
      '    svg chart',
      'h2 Invariants',
      '  group floating-tag error (1)',
      '    table Findings of rule floating-tag',
      'h2 Pins',
      '  group ghcr.io/acme/api (1)',
      '    table Pins of ghcr.io/acme/api',
    ]);
  });
});
