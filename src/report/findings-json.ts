/**
 * JSON findings: `{version, summary, findings[]}` with every field of the model,
 * suppressed findings included with their `suppressed` mark. Stable key order.
 */
import type { Finding } from '../model/index.js';
import { countFindings, type FindingsReportOptions } from './findings-common.js';

export const FINDINGS_JSON_VERSION = 1;

export function findingsJson(findings: readonly Finding[], options: FindingsReportOptions = {}): Record<string, unknown> {
  const c = countFindings(findings);
  return {
    version: FINDINGS_JSON_VERSION,
    ...(options.title ? { title: options.title } : {}),
    summary: { errors: c.error, warnings: c.warning, notes: c.note, suppressed: c.suppressed, suppressedInline: c.inline, suppressedByBaseline: c.baseline },
    ...(options.jsonExtra ?? {}),
    findings,
  };
}

export function formatFindingsJson(findings: readonly Finding[], options: FindingsReportOptions = {}): string {
  return `${JSON.stringify(findingsJson(findings, options), null, 2)}\n`;
}
