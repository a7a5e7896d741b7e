/**
 * The stylesheet of `pinwatch report --html`: inline, system fonts only, dark text on
 * light backgrounds and light on dark under `prefers-color-scheme: dark` (WCAG AA
 * contrast both ways), collapsible image rows, badges that keep a border when printed.
 */
export const HTML_REPORT_CSS = `
:root { --fg: #1b1f24; --muted: #4b5563; --line: #d0d7de; --head: #f3f4f6;
  --stale: #8a1c12; --stale-bg: #fde8e6; --current: #14532d; --current-bg: #e3f5e8;
  --unknown: #5b3a00; --unknown-bg: #fdf3d8; --note: #1e3a8a; --note-bg: #e6edfb;
  --bg: #ffffff; --link: #0b57d0; --fix: #b42318; --commit: #4b5563; --built: #14532d; --stamped: #1e3a8a; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e8eb; --muted: #a8b0ba; --line: #3a414a; --head: #1f242b;
    --stale: #ffb4a9; --stale-bg: #4a1510; --current: #a7e3b9; --current-bg: #12351f;
    --unknown: #f5d48a; --unknown-bg: #3d2c05; --note: #b8cbff; --note-bg: #17254d;
    --bg: #0f1216; --link: #8ab4f8; --fix: #ff8a7a; --commit: #c2c8d0; --built: #7fd69a; --stamped: #a9bfff; }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 72rem; padding: 1.5rem; color: var(--fg); background: var(--bg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; padding-bottom: .25rem; border-bottom: 2px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .4rem; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: .9em; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: 0 0 1rem; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; overflow-wrap: anywhere; }
ul.counts { display: flex; flex-wrap: wrap; gap: .5rem; list-style: none; padding: 0; margin: 0; }
ul.counts li { border: 1px solid var(--line); border-radius: 6px; padding: .35rem .7rem; min-width: 6.5rem; }
ul.counts strong { display: block; font-size: 1.35rem; }
table { border-collapse: collapse; width: 100%; margin: .25rem 0 1rem; }
caption { text-align: left; color: var(--muted); padding: .25rem 0; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; overflow-wrap: break-word; }
td.nowrap, th.nowrap { white-space: nowrap; }
th { background: var(--head); font-weight: 600; }
table.findings, table.pins, table.commits { table-layout: fixed; }
table.findings th:nth-child(1) { width: 6.5rem; }
table.findings th:nth-child(2) { width: 28%; }
table.findings th:nth-child(4) { width: 26%; }
table.pins th:nth-child(1) { width: 42%; }
table.pins th:nth-child(3), table.pins th:nth-child(4) { width: 9rem; }
table.commits th:nth-child(1) { width: 8rem; }
table.commits th:nth-child(2) { width: 7rem; }
table.commits th:nth-child(3), table.commits th:nth-child(4) { width: 5rem; }
td.num { text-align: right; white-space: nowrap; }
.badge { display: inline-block; white-space: nowrap; padding: 0 .45rem; border: 1px solid currentColor; border-radius: 999px; font-size: .85em; font-weight: 600; }
.status-stale, .sev-error { color: var(--stale); background: var(--stale-bg); }
.status-current { color: var(--current); background: var(--current-bg); }
.status-unknown, .sev-warning { color: var(--unknown); background: var(--unknown-bg); }
.sev-note { color: var(--note); background: var(--note-bg); }
.muted { color: var(--muted); }
.notes { border-left: 4px solid var(--line); padding: .25rem .75rem; margin: .5rem 0; }
figure { margin: .5rem 0 1rem; }
figcaption { color: var(--muted); margin-bottom: .25rem; }
svg.chart { width: 100%; height: auto; max-width: 52rem; }
svg.chart text { font: 12px system-ui, sans-serif; fill: var(--fg); }
svg.chart rect.bar { fill: var(--stale); }
svg .axis { stroke: var(--muted); stroke-width: 1.5; }
a { color: var(--link); }
a code { color: inherit; }
details.image { border: 1px solid var(--line); border-radius: 6px; margin: .3rem 0; }
details.image > summary { cursor: pointer; padding: .35rem .6rem; display: flex; flex-wrap: wrap; align-items: baseline; gap: .3rem .9rem; }
details.image > summary .name { min-width: 14rem; font-weight: 600; }
details.image > summary .built { color: var(--muted); margin-left: auto; }
details.image.status-row-stale { border-left: 4px solid var(--stale); }
details.image[open] > summary { border-bottom: 1px solid var(--line); background: var(--head); }
details.image > .body { padding: .25rem .75rem .5rem; }
details.group > summary { cursor: pointer; margin: .4rem 0; font-weight: 600; }
svg.timeline { display: block; width: 100%; height: auto; max-width: 45rem; margin: .25rem 0 .5rem; }
svg.timeline text { font: 11px system-ui, sans-serif; fill: var(--muted); }
svg.timeline text.age { fill: var(--fg); font-weight: 600; }
svg.timeline circle.commit { fill: var(--bg); stroke: var(--commit); stroke-width: 2; }
svg.timeline circle.commit.fix { fill: var(--fix); stroke: var(--fix); }
svg.timeline rect.built { fill: var(--built); }
svg.timeline path.stamped { fill: var(--stamped); }
svg.timeline line.now, svg.timeline line.head { stroke: var(--fg); stroke-width: 2; }
svg.timeline line.guide { stroke: var(--line); stroke-dasharray: 2 2; }
table.by-pr th[scope="row"] { font-weight: 600; }
table.by-pr { table-layout: fixed; }
table.by-pr th:nth-child(1) { width: 15rem; }
table.by-pr th:nth-child(2) { width: 4rem; }
table.by-pr th:nth-child(3) { width: 7rem; }
table.by-pr th:nth-child(5) { width: 30%; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  h2 { break-after: avoid; }
  tr, figure { break-inside: avoid; }
  th { background: none; }
}
`;
