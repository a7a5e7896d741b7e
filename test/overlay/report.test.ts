import { describe, expect, it } from 'vitest';
import type { DriftLine, OverlayReport } from '../../src/overlay/types.js';
import { ANNOTATIONS_PER_FILE, escapeData, escapeProperty, formatOverlayGithub } from '../../src/report/overlay-github.js';
import { formatOverlayMarkdown } from '../../src/report/overlay-markdown.js';
import { formatOverlayText, TEXT_LINE_LIMIT } from '../../src/report/overlay-text.js';
import { codeSpan, describeLine } from '../../src/report/overlay-common.js';

function report(lines: DriftLine[]): OverlayReport {
  return {
    root: '/repo',
    from: '/art',
    at: '',
    dryRun: false,
    ignoreComments: false,
    summary: { overlaid: 0, same: 4, skipped: 0, drift: 1, failed: 1, missingInArtifact: 0, newInArtifact: 0 },
    files: [
      { file: 'a,b/values.yaml', status: 'drift', method: 'structural', reason: `${lines.length} non-ref lines differ`, lines },
      { file: 'c/values.yaml', status: 'failed', reason: 'the artifact copy cannot be compared: a NUL byte at offset 1: a binary file, not text' },
    ],
    excluded: [],
    notes: [{ file: 'packages/x/', code: 'unreadable', reason: 'cannot list the directory (EACCES); files in it were not scanned' }],
  };
}

const line = (n: number): DriftLine => ({ line: n, artifactLine: n, committed: `  k${n}: 1`, artifact: `  k${n}: 2`, kind: 'config', reason: 'no image reference on this line' });

describe('overlay report formats', () => {
  it('describes a line as the issue asks', () => {
    expect(describeLine(line(12))).toBe('line 12 `k12: 1` → `k12: 2`: no image reference on this line');
    expect(describeLine({ artifactLine: 5, artifact: 'x: `y`', kind: 'config', reason: 'r' })).toBe('artifact line 5 `` x: `y` `` (only in the artifact): r');
    expect(codeSpan('')).toBe('(blank)');
  });

  it('text caps the lines per file and says how many more there are', () => {
    const many = Array.from({ length: TEXT_LINE_LIMIT + 3 }, (_, i) => line(i + 1));
    const out = formatOverlayText(report(many));
    expect(out).toContain(`… 3 more differing lines (--format json lists them all)`);
    expect(out).not.toContain(`line ${TEXT_LINE_LIMIT + 1} `);
    expect(out).toContain('same      4 byte-identical files (--list-same names them)');
    expect(out).toContain('note      packages/x/: cannot list the directory (EACCES); files in it were not scanned');
    expect(out.split('\n').at(-1)).toBe('overlaid=0 same=4 skipped=0 drift=1 failed=1 missing-in-artifact=0 new-in-artifact=0');
  });

  it('github escapes properties and caps annotations per file', () => {
    expect(escapeProperty('a,b:c%\n')).toBe('a%2Cb%3Ac%25%0A');
    expect(escapeData('50%\r\n')).toBe('50%25%0D%0A');
    const many = Array.from({ length: ANNOTATIONS_PER_FILE + 2 }, (_, i) => line(i + 1));
    const out = formatOverlayGithub(report(many)).split('\n');
    const drift = out.filter((l) => l.startsWith('::warning file=a%2Cb/values.yaml'));
    expect(drift).toHaveLength(ANNOTATIONS_PER_FILE + 2);
    expect(drift.at(-1)).toContain('2 more non-ref lines differ; the job summary lists them all');
    // every drifted or failed file is named first (GitHub shows only the first few annotations of a step)
    expect(out[0]).toBe(`::warning file=a%2Cb/values.yaml,line=1,title=overlay drift%3A committed refs kept::a,b/values.yaml: ${ANNOTATIONS_PER_FILE + 2} non-ref lines differ`);
    expect(out[1]).toBe('::warning file=c/values.yaml,title=overlay failed%3A committed refs kept::the artifact copy cannot be compared: a NUL byte at offset 1: a binary file, not text');
  });

  it('github points a line that exists only in the artifact at the checkout line it would precede', () => {
    const out = formatOverlayGithub(report([{ artifactLine: 9, nearLine: 7, artifact: 'x: 1', kind: 'config', reason: 'r' }]));
    expect(out).toContain('::warning file=a%2Cb/values.yaml,line=7,title=overlay drift%3A committed refs kept::artifact line 9 `x: 1` (only in the artifact): r');
  });

  it('markdown lists every line of a drifted file, collapsed when long', () => {
    const many = Array.from({ length: 20 }, (_, i) => line(i + 1));
    const md = formatOverlayMarkdown(report(many));
    expect(md).toContain('<details><summary>20 differing lines</summary>');
    expect(md).toContain('  - line 20 `k20: 1` → `k20: 2`: no image reference on this line');
    expect(md).toContain('### Failed (1)');
    expect(md).toContain('- `packages/x/`: cannot list the directory (EACCES); files in it were not scanned');
  });

  it('every format says when there was no artifact', () => {
    const r: OverlayReport = { ...report([]), files: [], noArtifact: 'no artifact tree at /art: nothing to overlay; every file keeps its committed refs' };
    expect(formatOverlayText(r)).toContain('no artifact tree at /art');
    expect(formatOverlayMarkdown(r)).toContain('no artifact tree at /art');
    expect(formatOverlayGithub(r)).toContain('::notice::no artifact tree at /art');
  });
});
