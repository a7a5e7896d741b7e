/**
 * GitLab Code Quality (`artifacts: reports: codequality`): a JSON array of Code
 * Climate issues, one per active finding, with the fields GitLab reads
 * (`description`, `check_name`, `fingerprint`, `severity`, `location.path`,
 * `location.lines.begin`) and those the Code Climate spec requires (`type`,
 * `categories`). Suppressed findings are left out, as in every CI format.
 * Schema: schemas/gitlab-code-quality.schema.json.
 */
import { createHash } from 'node:crypto';
import type { Finding, Severity } from '../model/index.js';
import { ruleCatalog, type FindingsReportOptions } from './findings-common.js';

export interface CodeQualityIssue {
  type: 'issue';
  check_name: string;
  description: string;
  content?: { body: string };
  categories: string[];
  severity: 'info' | 'minor' | 'major' | 'critical' | 'blocker';
  fingerprint: string;
  location: { path: string; lines: { begin: number } };
}

/** error fails the pipeline's threshold, as a major issue; a note is information. */
const SEVERITY: Record<Severity, CodeQualityIssue['severity']> = { error: 'major', warning: 'minor', note: 'info' };

/** Where a finding with no file is shown: the config, which is where it is fixed. */
export const NO_FILE_PATH = 'pinwatch.yaml';

/**
 * One issue per active finding. Fingerprints are the finding's own (stable across
 * runs); GitLab needs them unique, so a repeat gets its occurrence number mixed in.
 */
export function codeQualityIssues(findings: readonly Finding[], options: FindingsReportOptions = {}): CodeQualityIssue[] {
  const rules = ruleCatalog(options);
  const seen = new Map<string, number>();
  return findings
    .filter((f) => !f.suppressed)
    .map((f) => {
      const base = f.fingerprint ?? createHash('sha256').update([f.rule, f.file ?? '', String(f.line ?? ''), f.message].join('\0')).digest('hex').slice(0, 32);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      const fingerprint = n === 0 ? base : createHash('sha256').update(`${base}\0${n}`).digest('hex').slice(0, 32);
      const hint = f.hint ?? rules.get(f.rule)?.hint;
      return {
        type: 'issue' as const,
        check_name: `pinwatch/${f.rule}`,
        description: f.message,
        ...(hint ? { content: { body: `Fix: ${hint}` } } : {}),
        categories: [f.rule.startsWith('stale-') ? 'Security' : 'Bug Risk'],
        severity: SEVERITY[f.severity],
        fingerprint,
        location: { path: f.file ?? NO_FILE_PATH, lines: { begin: f.line && f.line > 0 ? f.line : 1 } },
      };
    });
}

export function formatFindingsGitlab(findings: readonly Finding[], options: FindingsReportOptions = {}): string {
  return `${JSON.stringify(codeQualityIssues(findings, options), null, 2)}\n`;
}
