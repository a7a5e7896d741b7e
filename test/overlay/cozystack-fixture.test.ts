/**
 * Real data: the ref-bearing files of cozystack at 3c780acd4. The "artifact" is
 * the same tree with every digest and release tag inside a pin span rewritten
 * (what a main build stamps); every storage shape in that tree must mask, so
 * nothing drifts. One config edit then drifts exactly that file, on that line.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectFile } from '../../src/collect/index.js';
import { defaultConfig } from '../../src/config/index.js';
import { runOverlay } from '../../src/overlay/repo.js';
import { fileKind } from '../../src/scan/kind.js';
import type { OverlayReport } from '../../src/overlay/types.js';
import { requireCozystackFixture } from '../support/cozystack.js';

const FIXTURE = requireCozystackFixture();
const MULTUS = 'packages/system/multus/templates/multus-daemonset-thick.yml';
const config = {
  ...defaultConfig(),
  firstParty: ['ghcr.io/cozystack/cozystack/'],
  include: ['packages/*/*/values.yaml', 'packages/*/*/images/*.tag'],
  extraFiles: [MULTUS],
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}

/** Rewrite digests and v-tags inside pin spans only, as a main build would; returns whether anything changed. */
function stampMain(text: string, file: string, kind: ReturnType<typeof fileKind>): string {
  const { pins } = collectFile(kind, text, { file, isFirstParty: (r) => r.startsWith('ghcr.io/cozystack/cozystack/') });
  const spans = [...new Map(pins.flatMap((p) => p.spans).map((s) => [`${s.start}:${s.end}`, s])).values()].sort((a, b) => b.start - a.start);
  let out = text;
  for (const s of spans) {
    const stamped = out
      .slice(s.start, s.end)
      .replace(/sha256:[0-9a-f]{64}/g, `sha256:${'e'.repeat(64)}`)
      .replace(/(^|:)v\d+\.\d+\.\d+(?=$|@)/, '$1main');
    out = out.slice(0, s.start) + stamped + out.slice(s.end);
  }
  return out;
}

let root: string;
let from: string;
let report: OverlayReport;
let changed: string[];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'pinwatch-overlay-cozy-'));
  from = mkdtempSync(join(tmpdir(), 'pinwatch-overlay-cozy-art-'));
  cpSync(join(FIXTURE, 'packages'), join(root, 'packages'), { recursive: true });
  cpSync(join(FIXTURE, 'packages'), join(from, 'packages'), { recursive: true });
  changed = [];
  for (const abs of files(join(from, 'packages'))) {
    const rel = relative(from, abs);
    const text = readFileSync(abs, 'utf8');
    const stamped = stampMain(text, rel, fileKind(rel, rel === MULTUS));
    if (stamped !== text) {
      writeFileSync(abs, stamped);
      changed.push(rel);
    }
  }
  // one config edit: must drift, and only on that line
  const cilium = join(from, 'packages/system/cilium/values.yaml');
  writeFileSync(cilium, `${readFileSync(cilium, 'utf8')}extraConfig: {}\n`);
  report = runOverlay({ root, from, config, skip: { built: [], touched: [], owned: [] }, dryRun: false, ignoreComments: false });
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(from, { recursive: true, force: true });
});

describe('overlay on cozystack 3c780acd4 with every pin restamped', () => {
  it('overlays every restamped file: every shape in the tree masks', () => {
    const overlaid = report.files.filter((f) => f.status === 'overlaid').map((f) => f.file);
    expect(changed.length).toBeGreaterThan(40);
    expect(overlaid.sort()).toEqual(changed.filter((f) => f !== 'packages/system/cilium/values.yaml').sort());
    expect(overlaid).toContain(MULTUS);
    expect(overlaid).toContain('packages/core/platform/values.yaml');
    for (const f of overlaid) expect(readFileSync(join(root, f), 'utf8')).toBe(readFileSync(join(from, f), 'utf8'));
  });

  it('the one config edit drifts with its line, everything else is same', () => {
    const drift = report.files.filter((f) => f.status === 'drift');
    expect(drift.map((f) => f.file)).toEqual(['packages/system/cilium/values.yaml']);
    expect(drift[0]?.lines).toMatchObject([{ artifact: 'extraConfig: {}', kind: 'config', reason: 'line only in the artifact; no image reference on it' }]);
    expect(report.summary.failed).toBe(0);
    expect(report.summary.same + report.summary.overlaid + report.summary.drift).toBe(171 - 1 /* README */);
  });
});
