/**
 * `pinwatch report --html`: one self-contained HTML page (inline CSS, an inline SVG
 * chart, no JavaScript, no external resources) with the stale images and their
 * unshipped commits, the findings by rule, and the first-party pins by repository.
 * Pure: data in, text out. Every string from the repository is HTML-escaped.
 */
import type { Finding, Pin } from '../model/index.js';
import type { StaleImage, StaleReport } from '../stale/index.js';
import type { RunningReport } from '../running/types.js';
import { countFindings } from './findings-common.js';
import { HTML_REPORT_CSS } from './html-style.js';
import { ageText, imageLabels, short, unshippedCount } from './stale-common.js';
import { pushTo } from '../util/list.js';

export interface HtmlReportInput {
  /** The repository as the reader knows it (a path or a name). */
  repo: string;
  /** When the report was made, ISO 8601. */
  generatedAt: string;
  stale: StaleReport & { notes?: string[] };
  findings: Finding[];
  pins: Pin[];
  /** What the cluster runs (`report --pods`), shown after the stale images. */
  running?: RunningReport;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escape text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const esc = escapeHtml;
const badge = (kind: string, text: string) => `<span class="badge ${kind}">${esc(text)}</span>`;
const row = (cells: string[]) => `<tr>${cells.join('')}</tr>`;
const td = (html: string, cls?: string) => (cls ? `<td class="${cls}">${html}</td>` : `<td>${html}</td>`);
const thead = (headers: string[]) => `<thead><tr>${headers.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead>`;
/** A table with a caption; `hidden` keeps the caption for screen readers only (the heading above says it); `kind` sets column widths. */
const table = (caption: string, headers: string[], rows: string[], opts: { hidden?: boolean; kind?: string } = {}) =>
  `<table${opts.kind ? ` class="${opts.kind}"` : ''}><caption${opts.hidden ? ' class="sr-only"' : ''}>${esc(caption)}</caption>${thead(headers)}<tbody>\n${rows.join('\n')}\n</tbody></table>`;
const location = (file: string | undefined, line: number | undefined) => (file ? `<code>${esc(line ? `${file}:${line}` : file)}</code>` : '<span class="muted">(repository)</span>');

export function formatHtmlReport(input: HtmlReportInput): string {
  const labels = imageLabels(input.stale.images);
  const body = [
    headerSection(input),
    staleSection(input.stale.images, labels),
    ...(input.running ? [runningSection(input.running)] : []),
    chartSection(input.stale.images, labels),
    findingsSection(input.findings),
    pinsSection(input.pins),
  ].join('\n');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>pinwatch report — ${esc(input.repo)}</title>`,
    `<style>${HTML_REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function headerSection(input: HtmlReportInput): string {
  const images = input.stale.images;
  const n = (s: string) => images.filter((i) => i.status === s).length;
  const c = countFindings(input.findings);
  const counts: [string, number, string][] = [
    ['stale', n('stale'), 'status-stale'],
    ['current', n('current'), 'status-current'],
    ['unknown', n('unknown'), 'status-unknown'],
    ['errors', c.error, 'sev-error'],
    ['warnings', c.warning, 'sev-warning'],
    ['notes', c.note, 'sev-note'],
  ];
  const notes = [...input.stale.warnings.map((w) => `warning: ${w}`), ...(input.stale.notes ?? [])];
  return [
    '<header>',
    '<h1>pinwatch report</h1>',
    '<dl class="meta">',
    `<dt>Repository</dt><dd><code>${esc(input.repo)}</code></dd>`,
    `<dt>HEAD</dt><dd><code>${esc(input.stale.head)}</code>${input.stale.shallow ? ' <span class="muted">(shallow clone)</span>' : ''}</dd>`,
    `<dt>Generated</dt><dd><time datetime="${esc(input.generatedAt)}">${esc(input.generatedAt)}</time></dd>`,
    `<dt>Images</dt><dd>${images.length} first-party</dd>`,
    `<dt>Findings</dt><dd>${c.error + c.warning + c.note} active${c.suppressed ? `, ${c.suppressed} suppressed (${c.inline} inline, ${c.baseline} by baseline; not listed)` : ''}</dd>`,
    '</dl>',
    `<ul class="counts" aria-label="Counts">${counts.map(([label, v, cls]) => `<li class="${cls}"><strong>${v}</strong>${label}</li>`).join('')}</ul>`,
    notes.length > 0 ? `<ul class="notes">${notes.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>` : '',
    '</header>',
  ].join('\n');
}

function builtFromCell(img: StaleImage): string {
  if (!img.builtFrom) return '<span class="muted">unknown</span>';
  return `<code title="${esc(img.builtFrom.commit)}">${esc(short(img.builtFrom.commit))}</code> <span class="muted">(${esc(img.builtFrom.method)})</span>`;
}

function staleSection(images: StaleImage[], labels: string[]): string {
  const out = ['<section id="stale" aria-labelledby="stale-h">', '<h2 id="stale-h">Merged but not shipped</h2>'];
  if (images.length === 0) return [...out, '<p class="muted">No first-party images are pinned (is <code>firstParty</code> set in pinwatch.yaml?).</p>', '</section>'].join('\n');
  const rows = images.map((img, n) =>
    row([
      `<th scope="row"><code>${esc(labels[n]!)}</code></th>`,
      td(badge(`status-${img.status}`, img.status)),
      td(builtFromCell(img)),
      td(esc(unshippedCount(img)), 'num'),
      td(esc(ageText(img)), 'num'),
    ]),
  );
  out.push(table('First-party images: the commit each was built from, and the commits to its build inputs it lacks', ['Image', 'Status', 'Built from', 'Unshipped (fix)', 'Oldest'], rows));
  images.forEach((img, n) => {
    if (img.status === 'stale') out.push(unshippedTable(img, labels[n]!));
    else if (img.status === 'unknown') out.push(`<h3><code>${esc(labels[n]!)}</code> ${badge('status-unknown', 'unknown')}</h3>`, `<p>${esc(img.reason ?? 'no reason recorded')}</p>`);
  });
  return [...out, '</section>'].join('\n');
}

function unshippedTable(img: StaleImage, label: string): string {
  const rows = img.unshipped.map((u) =>
    row([
      td(`<code title="${esc(u.commit)}">${esc(short(u.commit))}</code>`),
      td(esc(u.date.slice(0, 10)), 'nowrap'),
      td(u.fix ? badge('sev-error', u.type ?? 'fix') : u.type ? esc(u.type) : '<span class="muted">-</span>'),
      td(u.pr !== undefined ? esc(`#${u.pr}`) : '<span class="muted">-</span>', 'num'),
      td(esc(u.subject)),
    ]),
  );
  const pins = img.pins.map((p) => `<code>${esc(`${p.file}:${p.line}`)}</code>`).join(', ');
  return [
    `<h3 id="image-${esc(label.replace(/[^A-Za-z0-9_-]/g, '-'))}"><code>${esc(label)}</code> ${badge('status-stale', 'stale')}</h3>`,
    `<p><code>${esc(img.repository)}</code>; pins: ${pins}</p>`,
    table(`${img.unshipped.length} unshipped commit(s) in ${label}`, ['Commit', 'Date', 'Type', 'PR', 'Subject'], rows, { kind: 'commits' }),
  ].join('\n');
}

const CHART = { width: 760, labelWidth: 230, barArea: 440, rowHeight: 26, barHeight: 16, top: 8 };

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Horizontal bars: the age in days of each stale image's oldest unshipped commit. */
export function ageChartSvg(images: StaleImage[], labels: string[]): string {
  const bars = images.flatMap((img, n) => (img.status === 'stale' ? [{ label: labels[n]!, days: img.oldestUnshipped?.ageDays ?? 0, date: img.oldestUnshipped?.date }] : []));
  const max = Math.max(1, ...bars.map((b) => b.days));
  const height = CHART.top * 2 + bars.length * CHART.rowHeight;
  const rows = bars.map((b, n) => {
    const y = CHART.top + n * CHART.rowHeight;
    const w = Math.max(2, Math.round((b.days / max) * CHART.barArea));
    const mid = y + CHART.barHeight / 2 + 4;
    const title = `${b.label}: oldest unshipped commit is ${b.days} day(s) old${b.date ? ` (${b.date.slice(0, 10)})` : ''}`;
    return [
      `<g>`,
      `<text x="${CHART.labelWidth - 8}" y="${mid}" text-anchor="end">${esc(clip(b.label, 32))}</text>`,
      `<rect class="bar" x="${CHART.labelWidth}" y="${y}" width="${w}" height="${CHART.barHeight}"><title>${esc(title)}</title></rect>`,
      `<text x="${CHART.labelWidth + w + 6}" y="${mid}">${b.days}d</text>`,
      `</g>`,
    ].join('');
  });
  return [
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${CHART.width} ${height}" width="${CHART.width}" height="${height}" role="img" aria-labelledby="chart-cap">`,
    ...rows,
    `<line x1="${CHART.labelWidth}" y1="${CHART.top - 4}" x2="${CHART.labelWidth}" y2="${height - CHART.top + 4}" stroke="#4b5563"/>`,
    '</svg>',
  ].join('\n');
}

function chartSection(images: StaleImage[], labels: string[]): string {
  const stale = images.filter((i) => i.status === 'stale').length;
  const caption = '<figcaption id="chart-cap">Age in days of each stale image’s oldest unshipped commit</figcaption>';
  if (stale === 0) return '<figure>\n' + caption + '\n<p class="muted">No stale images.</p>\n</figure>';
  return ['<figure>', caption, ageChartSvg(images, labels), '</figure>'].join('\n');
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const i of items) pushTo(m, key(i), i);
  return m;
}

function findingsSection(findings: Finding[]): string {
  const active = findings.filter((f) => !f.suppressed);
  const out = ['<section id="invariants" aria-labelledby="inv-h">', '<h2 id="inv-h">Invariants</h2>'];
  if (active.length === 0) return [...out, '<p>No findings: every invariant holds.</p>', '</section>'].join('\n');
  for (const [rule, list] of [...groupBy(active, (f) => f.rule)].sort(([a], [b]) => a.localeCompare(b))) {
    const rows = list.map((f) => row([td(badge(`sev-${f.severity}`, f.severity)), td(location(f.file, f.line)), td(esc(f.message)), td(f.hint ? esc(f.hint) : '<span class="muted">-</span>')]));
    out.push(`<h3><code>${esc(rule)}</code> <span class="muted">(${list.length})</span></h3>`, table(`Findings of rule ${rule}`, ['Severity', 'Where', 'Message', 'Fix'], rows, { hidden: true, kind: 'findings' }));
  }
  return [...out, '</section>'].join('\n');
}

function pinsSection(pins: Pin[]): string {
  const firstParty = pins.filter((p) => p.firstParty);
  const out = ['<section id="pins" aria-labelledby="pins-h">', '<h2 id="pins-h">Pins</h2>'];
  if (firstParty.length === 0) return [...out, '<p class="muted">No first-party pins.</p>', '</section>'].join('\n');
  const byRepo = groupBy(firstParty, (p) => p.ref.name || '(repository not stored in the pin)');
  for (const [repo, list] of [...byRepo].sort(([a], [b]) => a.localeCompare(b))) {
    const rows = list.map((p) => row([td(location(p.file, p.line)), td(p.keyPath ? `<code>${esc(p.keyPath)}</code>` : '<span class="muted">-</span>'), td(esc(p.shape), 'nowrap'), td(esc(p.form), 'nowrap')]));
    out.push(`<h3><code>${esc(repo)}</code> <span class="muted">(${list.length})</span></h3>`, table(`Pins of ${repo}`, ['Where', 'Key path', 'Shape', 'Form'], rows, { hidden: true, kind: 'pins' }));
  }
  return [...out, '</section>'].join('\n');
}

const RUNNING_BADGE: Record<string, string> = { 'as-pinned': 'status-current', older: 'status-stale', diverged: 'status-stale', newer: 'status-unknown', unknown: 'status-unknown' };

/** The running view: every first-party container, its status against the pin, and what the drifting ones lack. */
function runningSection(report: RunningReport): string {
  const out = ['<section id="running" aria-labelledby="running-h">', '<h2 id="running-h">What the cluster runs</h2>'];
  const first = report.containers.filter((c) => c.firstParty);
  out.push(`<p>${esc(`${report.containers.length} container(s) in ${report.pods} pod(s); ${first.length} first-party, ${report.containers.length - first.length} third-party; ${report.rollouts.length} half-finished rollout(s).`)}</p>`);
  const rows = first.map((c) =>
    row([
      `<th scope="row"><code>${esc(`${c.namespace}/${c.pod}/${c.container}${c.init ? ' (init)' : ''}`)}</code></th>`,
      td(`<code>${esc(c.imageName ?? c.canonical ?? '')}</code>`),
      td(badge(RUNNING_BADGE[c.status] ?? 'status-unknown', c.status)),
      td(c.builtFrom ? `<code title="${esc(c.builtFrom.commit)}">${esc(short(c.builtFrom.commit))}</code> <span class="muted">(${esc(c.builtFrom.method)})</span>` : '<span class="muted">unknown</span>'),
      td(esc(String(c.lacks.length)), 'num'),
      td(esc(String(c.lacksVsPin.length)), 'num'),
      td(esc([c.reason, c.rollout].filter(Boolean).join('; '))),
    ]),
  );
  out.push(table('First-party containers: the commit the running digest was built from, against the pin and HEAD', ['Container', 'Image', 'Status', 'Built from', 'Lacks', 'vs pin', 'Note'], rows));
  for (const c of first.filter((x) => x.lacksVsPin.length > 0)) {
    const commits = c.lacksVsPin.map((l) => row([td(`<code title="${esc(l.commit)}">${esc(short(l.commit))}</code>`), td(esc(l.date.slice(0, 10)), 'nowrap'), td(l.pr !== undefined ? esc(`#${l.pr}`) : '<span class="muted">-</span>', 'num'), td(esc(l.subject))]));
    out.push(table(`${c.pod}/${c.container} lacks ${c.lacksVsPin.length} commit(s) the pinned build has`, ['Commit', 'Date', 'PR', 'Subject'], commits, { kind: 'commits' }));
  }
  return [...out, '</section>'].join('\n');
}
