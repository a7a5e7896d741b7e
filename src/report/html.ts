/**
 * `pinwatch report --html`: one self-contained HTML page (inline CSS, inline SVG, no
 * JavaScript, no external resources), a dashboard: the header (repository URL, HEAD and
 * its date, counts), the rebuild to-do list by PR, one collapsible `<details>` per image
 * (stale first, by fix count then age) with a timeline of its pin and unshipped commits,
 * the age chart, the findings and the pins. Commits, PRs and files are links when the
 * repository's links are known (src/report/links.ts), plain text otherwise.
 * Pure: data in, text out. Every string from the repository is HTML-escaped.
 */
import type { Finding, Pin } from '../model/index.js';
import type { StaleImage, StaleReport, UnshippedCommit } from '../stale/index.js';
import type { RunningReport } from '../running/types.js';
import { countFindings } from './findings-common.js';
import { HTML_REPORT_CSS } from './html-style.js';
import { expandLink, type RepoLinks } from './links.js';
import { ageText, imageLabels, short } from './stale-common.js';
import { pushTo } from '../util/list.js';

export interface HtmlReportInput {
  /** The repository as the reader knows it (a path or a name); shown when `links.repository` is unknown. */
  repo: string;
  /** When the report was made, ISO 8601. */
  generatedAt: string;
  stale: StaleReport & { notes?: string[] };
  findings: Finding[];
  pins: Pin[];
  /** What the cluster runs (`report --pods`), shown after the images. */
  running?: RunningReport;
  /** The repository's web URL and link templates (resolveLinks); none: no links. */
  links?: RepoLinks;
  /** HEAD's committer date, ISO 8601. */
  headDate?: string;
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
const muted = (text: string) => `<span class="muted">${esc(text)}</span>`;
/** `html` inside a link when `href` is known (already checked to be http(s) by expandLink). */
const link = (href: string | undefined, html: string, title?: string) => (href ? `<a href="${esc(href)}"${title ? ` title="${esc(title)}"` : ''}>${html}</a>` : html);
/** The anchor id of an image's `<details>`. */
const imageId = (label: string) => `image-${label.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** What the formatters need to make links: the templates and the commit files are shown at. */
interface Linker {
  commit(sha: string): string | undefined;
  pr(n: number): string | undefined;
  file(path: string, line?: number): string | undefined;
}

function linker(links: RepoLinks | undefined, head: string): Linker {
  const l = links ?? {};
  return {
    commit: (sha) => expandLink(l.commit, l, { commit: sha }),
    pr: (n) => expandLink(l.pr, l, { pr: n }),
    file: (path, line) => expandLink(l.file, l, { commit: head, path, ...(line !== undefined ? { line } : {}) }),
  };
}

const commitCell = (L: Linker, sha: string) => link(L.commit(sha), `<code title="${esc(sha)}">${esc(short(sha))}</code>`);
const prCell = (L: Linker, pr: number | undefined) => (pr !== undefined ? link(L.pr(pr), esc(`#${pr}`)) : muted('-'));
const locationHtml = (L: Linker, file: string | undefined, line: number | undefined) =>
  file ? link(L.file(file, line), `<code>${esc(line ? `${file}:${line}` : file)}</code>`) : muted('(repository)');

export function formatHtmlReport(input: HtmlReportInput): string {
  const L = linker(input.links, input.stale.head);
  const labels = imageLabels(input.stale.images);
  const order = imageOrder(input.stale.images);
  const body = [
    headerSection(input, L),
    byPrSection(input.stale.images, labels, L),
    imagesSection(input, order, labels, L),
    ...(input.running ? [runningSection(input.running, L)] : []),
    chartSection(order.map((n) => input.stale.images[n]!), order.map((n) => labels[n]!)),
    findingsSection(input.findings, L),
    pinsSection(input.pins, L),
  ].join('\n');
  const title = input.links?.repository ?? input.repo;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>pinwatch report — ${esc(title)}</title>`,
    `<style>${HTML_REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

const fixCount = (img: StaleImage) => img.unshipped.filter((u) => u.fix !== undefined).length;
const STATUS_RANK: Record<string, number> = { stale: 0, unknown: 1, current: 2 };

/** Indexes of the images in page order: stale first (most fixes, then oldest), then unknown, then current; ties keep input order. */
export function imageOrder(images: readonly StaleImage[]): number[] {
  return images
    .map((_, n) => n)
    .sort((a, b) => {
      const x = images[a]!;
      const y = images[b]!;
      return (STATUS_RANK[x.status] ?? 3) - (STATUS_RANK[y.status] ?? 3) || fixCount(y) - fixCount(x) || (y.oldestUnshipped?.ageDays ?? 0) - (x.oldestUnshipped?.ageDays ?? 0) || a - b;
    });
}

function headerSection(input: HtmlReportInput, L: Linker): string {
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
  const url = input.links?.repository;
  const repoHtml = url ? `<a href="${esc(url)}"><code>${esc(url)}</code></a>` : `<code>${esc(input.repo)}</code> <span class="muted">(no web URL: no remote with a known host; set links.repository)</span>`;
  const head = input.stale.head;
  const headHtml = [
    head ? commitCell(L, head) : muted('unknown'),
    input.headDate ? ` <time datetime="${esc(input.headDate)}">${esc(input.headDate.replace('T', ' ').replace(/(\.\d+)?(Z|[+-]\d\d:\d\d)$/, ' $2').trim())}</time>` : '',
    input.stale.shallow ? ' <span class="muted">(shallow clone)</span>' : '',
  ].join('');
  return [
    '<header>',
    `<h1>pinwatch report${url ? ` — ${esc(url.replace(/^https?:\/\/[^/]+\//, ''))}` : ''}</h1>`,
    '<dl class="meta">',
    `<dt>Repository</dt><dd>${repoHtml}</dd>`,
    `<dt>HEAD</dt><dd>${headHtml}</dd>`,
    `<dt>Generated</dt><dd><time datetime="${esc(input.generatedAt)}">${esc(input.generatedAt)}</time></dd>`,
    `<dt>Images</dt><dd>${images.length} first-party</dd>`,
    `<dt>Findings</dt><dd>${c.error + c.warning + c.note} active${c.suppressed ? `, ${c.suppressed} suppressed (${c.inline} inline, ${c.baseline} by baseline; not listed)` : ''}</dd>`,
    '</dl>',
    `<ul class="counts" aria-label="Counts">${counts.map(([label, v, cls]) => `<li class="${cls}"><strong>${v}</strong>${label}</li>`).join('')}</ul>`,
    notes.length > 0 ? `<ul class="notes">${notes.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>` : '',
    '</header>',
  ].join('\n');
}

/** One entry of the rebuild to-do list: a PR (or a commit without one) and the stale images that lack it. */
export interface PrGroup {
  pr?: number;
  /** The commits of that PR the images lack (one for a commit without a PR). */
  commits: UnshippedCommit[];
  /** Indexes into the images. */
  images: number[];
  fix: boolean;
  /** Oldest author date among its commits. */
  oldest: string;
}

/** Group the stale images' unshipped commits by PR: most images first, then fixes, then oldest. */
export function groupByPr(images: readonly StaleImage[]): PrGroup[] {
  const groups = new Map<string, PrGroup>();
  images.forEach((img, n) => {
    if (img.status !== 'stale') return;
    for (const u of img.unshipped) {
      const key = u.pr !== undefined ? `#${u.pr}` : u.commit;
      let g = groups.get(key);
      if (!g) {
        g = { ...(u.pr !== undefined ? { pr: u.pr } : {}), commits: [], images: [], fix: false, oldest: u.date };
        groups.set(key, g);
      }
      if (!g.commits.some((c) => c.commit === u.commit)) {
        if (u.fix !== undefined && !g.fix) g.commits.unshift(u); // the subject shown is a fix's when the PR has one
        else g.commits.push(u);
      }
      if (!g.images.includes(n)) g.images.push(n);
      if (u.fix !== undefined) g.fix = true;
      if (u.date < g.oldest) g.oldest = u.date;
    }
  });
  return [...groups.values()].sort((a, b) => b.images.length - a.images.length || Number(b.fix) - Number(a.fix) || a.oldest.localeCompare(b.oldest));
}

/** Rows of the by-PR table shown open; the rest sit in a `<details>` below it. */
const BY_PR_SHOWN = 6;

function byPrSection(images: StaleImage[], labels: string[], L: Linker): string {
  const groups = groupByPr(images);
  const out = ['<section id="by-pr" aria-labelledby="by-pr-h">', '<h2 id="by-pr-h">Rebuild to-do: merged changes by PR</h2>'];
  if (groups.length === 0) return [...out, '<p class="muted">No image lacks a merged change.</p>', '</section>'].join('\n');
  const rows = groups.map((g) => {
    const what = g.pr !== undefined ? prCell(L, g.pr) : commitCell(L, g.commits[0]!.commit);
    const imgs = g.images.map((n) => `<a href="#${esc(imageId(labels[n]!))}"><code>${esc(labels[n]!)}</code></a>`).join(', ');
    const subject = g.commits.length === 1 ? esc(g.commits[0]!.subject) : `${esc(g.commits[0]!.subject)} <span class="muted">(+${g.commits.length - 1} more commit(s))</span>`;
    return row([
      `<th scope="row">${what} is missing from ${g.images.length} image${g.images.length === 1 ? '' : 's'}</th>`,
      td(g.fix ? badge('sev-error', 'fix') : muted('-')),
      td(esc(g.oldest.slice(0, 10)), 'nowrap'),
      td(subject),
      td(imgs),
    ]);
  });
  const headers = ['Change', 'Fix', 'Merged', 'Subject', 'Images'];
  out.push(table(`${groups.length} merged change(s) not in every image that needs them, most images first: each image listed needs a rebuild and repin`, headers, rows.slice(0, BY_PR_SHOWN), { kind: 'by-pr' }));
  if (rows.length > BY_PR_SHOWN) {
    out.push(`<details class="group"><summary>${rows.length - BY_PR_SHOWN} more change(s)</summary>`, table('The other merged changes', headers, rows.slice(BY_PR_SHOWN), { hidden: true, kind: 'by-pr' }), '</details>');
  }
  return [...out, '</section>'].join('\n');
}

function builtFromHtml(img: StaleImage, L: Linker): string {
  if (!img.builtFrom) return muted('unknown');
  return `${commitCell(L, img.builtFrom.commit)} <span class="muted">(${esc(img.builtFrom.method)})</span>`;
}

function imagesSection(input: HtmlReportInput, order: number[], labels: string[], L: Linker): string {
  const images = input.stale.images;
  const out = ['<section id="stale" aria-labelledby="stale-h">', '<h2 id="stale-h">Merged but not shipped</h2>'];
  if (images.length === 0) return [...out, '<p class="muted">No first-party images are pinned (is <code>firstParty</code> set in pinwatch.yaml?).</p>', '</section>'].join('\n');
  out.push('<p class="muted">One row per first-party image, stale first (most fixes, then oldest); open a row for its timeline, pins and commits.</p>');
  for (const n of order) out.push(imageDetails(images[n]!, labels[n]!, input.generatedAt, input.headDate, L));
  return [...out, '</section>'].join('\n');
}

function imageDetails(img: StaleImage, label: string, now: string, headDate: string | undefined, L: Linker): string {
  const fixes = fixCount(img);
  const summary = [
    `<span class="name"><code>${esc(label)}</code></span>`,
    badge(`status-${img.status}`, img.status),
    img.status === 'stale' ? `<span class="unshipped">${esc(`${img.unshipped.length} unshipped`)}${fixes ? ` ${badge('sev-error', `${fixes} fix`)}` : ''}</span>` : '',
    img.status === 'stale' ? `<span class="age">oldest ${esc(ageText(img))}</span>` : '',
    `<span class="built">built from ${builtFromHtml(img, L)}</span>`,
  ].filter(Boolean);
  const pins = img.pins.map((p) => locationHtml(L, p.file, p.line)).join(', ');
  const inner = [`<p><code>${esc(img.repository)}</code>${img.tags.length ? ` <span class="muted">${esc(img.tags.join(', '))}</span>` : ''}; pins: ${pins || muted('none')}</p>`];
  if (img.status === 'unknown') inner.push(`<p>${esc(img.reason ?? 'no reason recorded')}</p>`);
  const timeline = timelineSvg(img, label, now, headDate);
  if (timeline) inner.push(timeline);
  if (img.status === 'stale') {
    const rows = img.unshipped.map((u) => row([td(commitCell(L, u.commit)), td(esc(u.date.slice(0, 10)), 'nowrap'), td(u.fix ? badge('sev-error', u.type ?? 'fix') : u.type ? esc(u.type) : muted('-')), td(prCell(L, u.pr), 'num'), td(esc(u.subject))]));
    inner.push(table(`${img.unshipped.length} unshipped commit(s) in ${label}`, ['Commit', 'Date', 'Type', 'PR', 'Subject'], rows, { kind: 'commits' }));
  }
  if (img.rebuild && img.rebuild.length > 0) {
    const rows = img.rebuild.map((u) => row([td(commitCell(L, u.commit)), td(esc(u.date.slice(0, 10)), 'nowrap'), td(prCell(L, u.pr), 'num'), td(esc(u.subject))]));
    inner.push(table(`This PR changes the inputs of ${label}: its build must rebuild and repin it`, ['Commit', 'Date', 'PR', 'Subject'], rows, { kind: 'commits' }));
  }
  return [`<details class="image status-row-${esc(img.status)}" id="${esc(imageId(label))}">`, `<summary>${summary.join(' ')}</summary>`, `<div class="body">`, ...inner, '</div>', '</details>'].join('\n');
}

const TL = { width: 720, left: 12, right: 100, pin: 24, axis: 46, height: 76 };
const DAY_MS = 86_400_000;

/** When the pin was stamped: the introducing commit's date of the answering provenance step. */
function stampedDate(img: StaleImage): string | undefined {
  for (const step of img.provenance) {
    const intro = step.evidence?.introducedBy as { date?: unknown } | undefined;
    if (step.answered && typeof intro?.date === 'string') return intro.date;
  }
  return undefined;
}

const validDate = (d: string | undefined): d is string => typeof d === 'string' && !Number.isNaN(Date.parse(d));

/**
 * One image's timeline as inline SVG, on one time axis up to now: above it the pin — the
 * build commit's date (square) and when the pin was stamped (diamond); on it each
 * unshipped commit (circle; filled for a fix), HEAD's date and now; the age at the end.
 * Every mark has a `<title>`. Undefined when no date is known.
 */
export function timelineSvg(img: StaleImage, label: string, now: string, headDate?: string): string | undefined {
  const built = img.builtFrom?.date;
  const stamped = stampedDate(img);
  const dates = [built, stamped, ...img.unshipped.map((u) => u.date)].filter(validDate);
  if (dates.length === 0 || !validDate(now)) return undefined;
  const end = Date.parse(now);
  const start = Math.min(end - DAY_MS, ...dates.map((d) => Date.parse(d)));
  const span = end - start;
  const right = TL.width - TL.right;
  const xn = (d: string) => TL.left + ((Math.min(end, Date.parse(d)) - start) / span) * (right - TL.left);
  const x = (d: string) => xn(d).toFixed(1);
  const { pin, axis } = TL;
  const days = (d: string) => Math.floor((end - Date.parse(d)) / DAY_MS);
  const parts: string[] = [`<line class="axis" x1="${TL.left}" y1="${axis}" x2="${right}" y2="${axis}"/>`];
  const guide = (d: string) => `<line class="guide" x1="${x(d)}" y1="${pin + 6}" x2="${x(d)}" y2="${axis}"/>`;
  if (validDate(built)) {
    parts.push(guide(built), `<rect class="built" x="${(xn(built) - 5).toFixed(1)}" y="${pin - 5}" width="10" height="10"><title>${esc(`built from ${short(img.builtFrom!.commit)} (${built.slice(0, 10)}, ${days(built)} day(s) ago)`)}</title></rect>`);
  }
  if (validDate(stamped)) {
    parts.push(guide(stamped), `<path class="stamped" d="M${x(stamped)} ${pin - 7} l7 7 l-7 7 l-7 -7 z"><title>${esc(`pin stamped ${stamped.slice(0, 10)} (${days(stamped)} day(s) ago)`)}</title></path>`);
  }
  const pinLabel = [validDate(built) ? 'built' : '', validDate(stamped) ? 'stamped' : ''].filter(Boolean);
  const near = validDate(built) && validDate(stamped) && Math.abs(xn(built) - xn(stamped)) < 60;
  if (near || pinLabel.length === 1) {
    const at = validDate(built) ? built : stamped!;
    parts.push(`<text x="${x(at)}" y="${pin - 11}" text-anchor="${xn(at) < 60 ? 'start' : 'middle'}">${esc(pinLabel.join(' · '))}</text>`);
  } else if (pinLabel.length === 2) {
    parts.push(`<text x="${x(built!)}" y="${pin - 11}" text-anchor="middle">built</text>`, `<text x="${x(stamped!)}" y="${pin - 11}" text-anchor="middle">stamped</text>`);
  }
  for (const u of img.unshipped) {
    if (!validDate(u.date)) continue;
    parts.push(`<circle class="${u.fix ? 'commit fix' : 'commit'}" cx="${x(u.date)}" cy="${axis}" r="5"><title>${esc(`${short(u.commit)} ${u.date.slice(0, 10)}${u.pr !== undefined ? ` #${u.pr}` : ''}: ${u.subject}`)}</title></circle>`);
  }
  if (validDate(headDate) && Date.parse(headDate) >= start) {
    parts.push(`<line class="head" x1="${x(headDate)}" y1="${axis - 8}" x2="${x(headDate)}" y2="${axis + 8}"><title>${esc(`HEAD ${headDate.slice(0, 10)}`)}</title></line>`);
    if (right - xn(headDate) > 50) parts.push(`<text x="${x(headDate)}" y="${axis + 22}" text-anchor="middle">HEAD</text>`);
  }
  parts.push(`<line class="now" x1="${right}" y1="${axis - 10}" x2="${right}" y2="${axis + 10}"/>`);
  parts.push(`<text x="${TL.left}" y="${axis + 22}">${esc(new Date(start).toISOString().slice(0, 10))}</text>`);
  parts.push(`<text x="${right}" y="${axis + 22}" text-anchor="middle">now</text>`);
  const age = img.oldestUnshipped ? `${img.oldestUnshipped.ageDays}d behind` : img.status === 'current' ? 'current' : img.status;
  parts.push(`<text class="age" x="${right + 10}" y="${axis + 4}">${esc(age)}</text>`);
  const desc = `Timeline of ${label}: ${[validDate(built) ? `built from a commit of ${built.slice(0, 10)}` : '', validDate(stamped) ? `pin stamped ${stamped.slice(0, 10)}` : '', `${img.unshipped.length} unshipped commit(s)`].filter(Boolean).join(', ')}`;
  return `<svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${TL.width} ${TL.height}" width="${TL.width}" height="${TL.height}" role="img" aria-label="${esc(desc)}">${parts.join('')}</svg>`;
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
    `<line class="axis" x1="${CHART.labelWidth}" y1="${CHART.top - 4}" x2="${CHART.labelWidth}" y2="${height - CHART.top + 4}"/>`,
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

function findingsSection(findings: Finding[], L: Linker): string {
  const active = findings.filter((f) => !f.suppressed);
  const out = ['<section id="invariants" aria-labelledby="inv-h">', '<h2 id="inv-h">Invariants</h2>'];
  if (active.length === 0) return [...out, '<p>No findings: every invariant holds.</p>', '</section>'].join('\n');
  for (const [rule, list] of [...groupBy(active, (f) => f.rule)].sort(([a], [b]) => a.localeCompare(b))) {
    const worst = list.some((f) => f.severity === 'error') ? 'error' : list.some((f) => f.severity === 'warning') ? 'warning' : 'note';
    const rows = list.map((f) => row([td(badge(`sev-${f.severity}`, f.severity)), td(locationHtml(L, f.file, f.line)), td(esc(f.message)), td(f.hint ? esc(f.hint) : muted('-'))]));
    out.push(
      `<details class="group"><summary><code>${esc(rule)}</code> ${badge(`sev-${worst}`, worst)} <span class="muted">(${list.length})</span></summary>`,
      table(`Findings of rule ${rule}`, ['Severity', 'Where', 'Message', 'Fix'], rows, { hidden: true, kind: 'findings' }),
      '</details>',
    );
  }
  return [...out, '</section>'].join('\n');
}

function pinsSection(pins: Pin[], L: Linker): string {
  const firstParty = pins.filter((p) => p.firstParty);
  const out = ['<section id="pins" aria-labelledby="pins-h">', '<h2 id="pins-h">Pins</h2>'];
  if (firstParty.length === 0) return [...out, '<p class="muted">No first-party pins.</p>', '</section>'].join('\n');
  const byRepo = groupBy(firstParty, (p) => p.ref.name || '(repository not stored in the pin)');
  for (const [repo, list] of [...byRepo].sort(([a], [b]) => a.localeCompare(b))) {
    const rows = list.map((p) => row([td(locationHtml(L, p.file, p.line)), td(p.keyPath ? `<code>${esc(p.keyPath)}</code>` : muted('-')), td(esc(p.shape), 'nowrap'), td(esc(p.form), 'nowrap')]));
    out.push(
      `<details class="group"><summary><code>${esc(repo)}</code> <span class="muted">(${list.length})</span></summary>`,
      table(`Pins of ${repo}`, ['Where', 'Key path', 'Shape', 'Form'], rows, { hidden: true, kind: 'pins' }),
      '</details>',
    );
  }
  return [...out, '</section>'].join('\n');
}

const RUNNING_BADGE: Record<string, string> = { 'as-pinned': 'status-current', older: 'status-stale', diverged: 'status-stale', newer: 'status-unknown', unknown: 'status-unknown' };

/** The running view: every first-party container, its status against the pin, and what the drifting ones lack. */
function runningSection(report: RunningReport, L: Linker): string {
  const out = ['<section id="running" aria-labelledby="running-h">', '<h2 id="running-h">What the cluster runs</h2>'];
  const first = report.containers.filter((c) => c.firstParty);
  out.push(`<p>${esc(`${report.containers.length} container(s) in ${report.pods} pod(s); ${first.length} first-party, ${report.containers.length - first.length} third-party; ${report.rollouts.length} half-finished rollout(s).`)}</p>`);
  const rows = first.map((c) =>
    row([
      `<th scope="row"><code>${esc(`${c.namespace}/${c.pod}/${c.container}${c.init ? ' (init)' : ''}`)}</code></th>`,
      td(`<code>${esc(c.imageName ?? c.canonical ?? '')}</code>`),
      td(badge(RUNNING_BADGE[c.status] ?? 'status-unknown', c.status)),
      td(c.builtFrom ? `${commitCell(L, c.builtFrom.commit)} <span class="muted">(${esc(c.builtFrom.method)})</span>` : muted('unknown')),
      td(esc(String(c.lacks.length)), 'num'),
      td(esc(String(c.lacksVsPin.length)), 'num'),
      td(esc([c.reason, c.rollout].filter(Boolean).join('; '))),
    ]),
  );
  out.push(table('First-party containers: the commit the running digest was built from, against the pin and HEAD', ['Container', 'Image', 'Status', 'Built from', 'Lacks', 'vs pin', 'Note'], rows));
  for (const c of first.filter((x) => x.lacksVsPin.length > 0)) {
    const commits = c.lacksVsPin.map((l) => row([td(commitCell(L, l.commit)), td(esc(l.date.slice(0, 10)), 'nowrap'), td(prCell(L, l.pr), 'num'), td(esc(l.subject))]));
    out.push(table(`${c.pod}/${c.container} lacks ${c.lacksVsPin.length} commit(s) the pinned build has`, ['Commit', 'Date', 'PR', 'Subject'], commits, { kind: 'commits' }));
  }
  return [...out, '</section>'].join('\n');
}
