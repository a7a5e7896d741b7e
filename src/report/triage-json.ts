/** `pinwatch triage --format json`: the report as a stable JSON document (schemas/triage-output.schema.json, docs/triage.md). */
import type { TriageMatch, TriageReport } from '../triage/index.js';

export const TRIAGE_JSON_VERSION = 1;

const ref = (c: { commit: string; date?: string; subject?: string } | undefined) => (c ? { commit: c.commit, date: c.date ?? null, subject: c.subject ?? null } : null);

function matchJson(m: TriageMatch): Record<string, unknown> {
  return {
    file: m.file,
    line: m.line,
    atHead: m.atHead,
    literal: m.literal,
    specificity: m.specificity,
    introduced: ref(m.introduced),
    introducedBefore: m.introducedBefore ?? null,
    removed: ref(m.removed),
    images: m.images.map((i) => ({
      name: i.name,
      repository: i.repository,
      digest: i.digest ?? null,
      build: i.build ?? null,
      buildSource: i.buildSource ?? 'pinned',
      runningIn: i.runningIn ?? null,
      standing: i.standing,
      reason: i.reason,
      lacks: i.lacks.map((l) => ({ commit: l.commit, subject: l.subject, pr: l.pr ?? null, date: l.date, mentions: l.mentions })),
    })),
  };
}

export function triageJson(report: TriageReport): Record<string, unknown> {
  return {
    version: TRIAGE_JSON_VERSION,
    head: report.head,
    window: report.window,
    index: report.index,
    summary: report.summary,
    notes: report.notes,
    stats: { gitProcesses: report.gitProcesses, timings: report.timings },
    lines: report.lines.map((l) => ({
      source: l.source,
      lineNumber: l.lineNumber,
      text: l.text,
      verdict: l.verdict,
      explanation: l.explanation,
      tokens: l.tokens,
      matches: l.matches.map(matchJson),
      moreMatches: l.moreMatches,
    })),
  };
}

export function formatTriageJson(report: TriageReport): string {
  return `${JSON.stringify(triageJson(report), null, 2)}\n`;
}
