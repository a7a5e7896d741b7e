/** `pinwatch running --format json`: the report as a stable document (schemas/running-output.schema.json, docs/running.md). */
import type { LackedCommit, RunningContainer, RunningReport } from '../running/types.js';

export const RUNNING_JSON_VERSION = 1;

const lacked = (l: LackedCommit) => ({ commit: l.commit, subject: l.subject, pr: l.pr ?? null, type: l.type ?? null, date: l.date });

function containerJson(c: RunningContainer): Record<string, unknown> {
  return {
    namespace: c.namespace,
    pod: c.pod,
    container: c.container,
    init: c.init,
    image: c.image,
    imageID: c.imageID ?? null,
    repository: c.repository ?? null,
    canonical: c.canonical ?? null,
    firstParty: c.firstParty,
    imageName: c.imageName ?? null,
    runningDigest: c.runningDigest ?? null,
    platform: c.platform ?? null,
    status: c.status,
    reason: c.reason ?? null,
    builtFrom: c.builtFrom ? { commit: c.builtFrom.commit, method: c.builtFrom.method } : null,
    pinned: c.pinned ? { digest: c.pinned.digest, builtFrom: c.pinned.builtFrom ? { commit: c.pinned.builtFrom.commit } : null, pins: c.pinned.pins } : null,
    lacks: c.lacks.map(lacked),
    lacksVsPin: c.lacksVsPin.map(lacked),
    workload: c.workload ?? null,
    rollout: c.rollout ?? null,
    source: { file: c.source.file, line: c.source.line ?? null },
  };
}

export function runningJson(report: RunningReport): Record<string, unknown> {
  const first = report.containers.filter((c) => c.firstParty);
  const count = (s: string) => first.filter((c) => c.status === s).length;
  return {
    version: RUNNING_JSON_VERSION,
    head: report.head,
    shallow: report.shallow,
    summary: {
      pods: report.pods,
      containers: report.containers.length,
      firstParty: first.length,
      asPinned: count('as-pinned'),
      older: count('older'),
      newer: count('newer'),
      diverged: count('diverged'),
      unknown: count('unknown'),
      rollouts: report.rollouts.length,
    },
    files: report.files,
    filesWithoutPods: report.filesWithoutPods,
    warnings: report.warnings,
    notes: report.notes,
    stats: { gitProcesses: report.gitProcesses },
    rollouts: report.rollouts,
    containers: report.containers.map(containerJson),
  };
}

export function formatRunningJson(report: RunningReport): string {
  return `${JSON.stringify(runningJson(report), null, 2)}\n`;
}
