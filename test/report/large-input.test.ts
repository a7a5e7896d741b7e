/**
 * 200,000 pins through every text formatter that lists pins, images or findings:
 * no `Math.max(...big)` / `Math.min(...big)` spread (a RangeError past ~120k
 * arguments), on a plain pipe and on a narrow fake TTY (the width-aware path).
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import type { Finding, Pin } from '../../src/model/index.js';
import { parseReference } from '../../src/reference/reference.js';
import { formatCheckText } from '../../src/report/check-text.js';
import { formatFindingsText } from '../../src/report/findings-text.js';
import { formatScanText } from '../../src/report/scan-text.js';
import { formatStaleText } from '../../src/report/stale-text.js';
import { formatStaleMarkdown } from '../../src/report/stale-markdown.js';
import type { StaleImage } from '../../src/stale/index.js';
import type { StaleReportResult } from '../../src/stale/repo.js';
import type { TextStyle } from '../../src/report/style.js';

const N = 200_000;
const DIGEST = `sha256:${'a'.repeat(64)}`;

const pins: Pin[] = Array.from({ length: N }, (_, i) => {
  const raw = `ghcr.io/acme/app-${i % 5000}:v1.${i}@${DIGEST}`;
  return { file: `charts/c${i}/values.yaml`, line: 3, column: 10, keyPath: 'image', shape: 'yaml-string', spans: [{ start: 20, end: 20 + raw.length }], raw, ref: parseReference(raw), form: 'tag+digest', firstParty: i % 2 === 0 } as Pin;
});

const images: StaleImage[] = Array.from({ length: N }, (_, i) => ({
  image: `app-${i}`,
  repository: `ghcr.io/acme/app-${i}`,
  digest: DIGEST,
  tags: ['v1'],
  status: i % 3 === 0 ? 'stale' : i % 3 === 1 ? 'current' : 'unknown',
  ...(i % 3 === 2 ? { reason: 'no provenance method answered' } : { builtFrom: { commit: 'b'.repeat(40), method: 'digest-history' as const } }),
  provenance: [],
  unshipped: i % 3 === 0 ? [{ commit: 'c'.repeat(40), date: '2026-01-02T00:00:00Z', subject: 'fix: a bug', fix: 'fix' } as StaleImage['unshipped'][number]] : [],
  cherryPicked: [],
  ...(i % 3 === 0 ? { oldestUnshipped: { commit: 'c'.repeat(40), date: '2026-01-02T00:00:00Z', ageDays: 30 } } : {}),
  pins: [{ file: `charts/c${i}/values.yaml`, line: 3 }],
  inputs: { count: 1, patterns: [], ignore: [], steps: [] },
}));

const stale: StaleReportResult = { head: 'd'.repeat(40), shallow: false, images, warnings: [], notes: [] } as unknown as StaleReportResult;

const findings: Finding[] = Array.from({ length: N }, (_, i) => ({
  rule: i % 2 ? 'floating-tag' : 'stale-image',
  severity: i % 4 === 0 ? 'error' : i % 4 === 1 ? 'warning' : 'note',
  message: `finding ${i}`,
  file: `charts/c${i}/values.yaml`,
  line: 3,
  ...(i % 10 === 0 ? { suppressed: { kind: 'baseline' as const } } : {}),
}));

const STYLES: [string, TextStyle][] = [
  ['piped', { color: false }],
  ['a 60-column colour TTY', { color: true, width: 60 }],
];

describe(`${N} pins through the text formatters`, () => {
  it.each(STYLES)('scan text, %s', () => {
    const text = formatScanText({ root: '/r', config: defaultConfig(), filesScanned: N, pins, skipped: [], problems: [], excluded: [], kustomize: [] });
    expect(text.split('\n').length).toBeGreaterThan(N);
    expect(text).toContain('charts/c199999/values.yaml:3');
  });

  it.each(STYLES)('stale text, %s', (_, style) => {
    const text = formatStaleText(stale, { style });
    expect(text.split('\n', 1)[0]).toContain(`${N} image(s): 66667 stale, 66667 current, 66666 unknown`);
    expect(text).toContain('app-199998');
    if (style.width) expect(text.split('\n').every((l) => l.replace(/\u001b\[[0-9;]*m/g, '').length <= style.width!)).toBe(true);
  });

  it('stale markdown', () => {
    expect(formatStaleMarkdown(stale)).toContain('app-199999');
  });

  it.each(STYLES)('lint findings text, %s', (_, style) => {
    const text = formatFindingsText(findings, { style });
    if (style.width) return void expect(text.split('\n').every((l) => l.replace(/\u001b\[[0-9;]*m/g, '').length <= style.width!)).toBe(true);
    expect(text.split('\n', 1)[0]).toBe('180000 findings: 40000 errors, 50000 warnings, 90000 notes (20000 suppressed: 0 inline, 20000 by baseline)');
    expect(text).toContain('finding 199999');
  });

  it.each(STYLES)('check text, %s', (_, style) => {
    const text = formatCheckText(stale, findings, [], undefined, { style });
    expect(text.split('\n', 1)[0]!.replace(/\u001b\[[0-9;]*m/g, '')).toBe('check: 40000 errors, 50000 warnings, 90000 notes in all');
    if (style.width) return void expect(text.split('\n').every((l) => l.replace(/\u001b\[[0-9;]*m/g, '').length <= style.width!)).toBe(true);
    expect(text).toContain('finding 199999');
  });
});
