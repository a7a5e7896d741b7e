/** `pinwatch stale --format json`: the report as a stable JSON document (see docs/stale.md). */
import type { StaleImage, StaleReport } from '../stale/index.js';

export const STALE_JSON_VERSION = 1;

function imageJson(img: StaleImage): Record<string, unknown> {
  return {
    image: img.image,
    repository: img.repository,
    digest: img.digest ?? null,
    tags: img.tags,
    status: img.status,
    reason: img.reason ?? null,
    builtFrom: img.builtFrom ?? null,
    oldestUnshipped: img.oldestUnshipped ?? null,
    unshipped: img.unshipped.map((u) => ({ commit: u.commit, date: u.date, subject: u.subject, pr: u.pr ?? null, type: u.type ?? null, fix: u.fix ?? null, paths: u.paths })),
    cherryPicked: img.cherryPicked,
    pins: img.pins,
    inputs: { count: img.inputs.count, paths: img.inputs.patterns.map((p) => p.path), ignore: img.inputs.ignore, unknownReason: img.inputs.unknownReason ?? null },
    provenance: img.provenance,
    // PR mode only: the PR's own commits that change the image's inputs
    ...(img.rebuild ? { rebuild: img.rebuild.map((u) => ({ commit: u.commit, date: u.date, subject: u.subject, pr: u.pr ?? null, type: u.type ?? null, paths: u.paths })) } : {}),
  };
}

export function staleJson(report: StaleReport & { notes?: string[] }): Record<string, unknown> {
  const count = (s: string) => report.images.filter((i) => i.status === s).length;
  return {
    version: STALE_JSON_VERSION,
    head: report.head,
    shallow: report.shallow,
    ...(report.base ? { base: report.base } : {}),
    summary: { images: report.images.length, stale: count('stale'), current: count('current'), unknown: count('unknown') },
    warnings: report.warnings,
    notes: report.notes ?? [],
    stats: { gitProcesses: report.gitProcesses, ...(report.history ? { history: report.history } : {}), timings: report.timings ?? {}, ...(report.reused ? { reused: report.reused } : {}) },
    images: report.images.map(imageJson),
  };
}

export function formatStaleJson(report: StaleReport & { notes?: string[] }): string {
  return `${JSON.stringify(staleJson(report), null, 2)}\n`;
}
