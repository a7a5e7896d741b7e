/**
 * Shared pieces of the generic finding formatters: options, counts, locations,
 * and the rule metadata lookup (lint's catalog plus whatever rules the calling
 * command adds). Formatters never know which command produced a finding.
 */
import type { Finding, Severity } from '../model/index.js';
import { LINT_RULES, RULE_DOCS_PATH } from '../rules/catalog.js';
import type { RuleMeta } from '../rules/index.js';
import { plainField } from './sanitize.js';
import type { Detail, TextStyle } from './style.js';

export interface FindingsReportOptions {
  /** Heading, e.g. `pinwatch lint`. */
  title?: string;
  /** Rule metadata besides lint's catalog (e.g. `stale-image` from stale). */
  rules?: readonly RuleMeta[];
  /** Base URL of the rule pages; `<base><id>.md`. */
  docsBase?: string;
  /** The producing tool; the CLI passes its package version (report/ reads no files). */
  tool?: { name: string; version?: string; informationUri?: string };
  /** Absolute repository root, for SARIF `originalUriBaseIds`. */
  root?: string;
  /** Extra lines under the summary (e.g. stale baseline entries). */
  notes?: readonly string[];
  /** Extra top-level fields of the JSON report (e.g. `baseline`). */
  jsonExtra?: Record<string, unknown>;
  /** Text only: colour and width (./style.ts); plain when absent. */
  style?: TextStyle;
  /** Text only: `quiet` the summary only, `verbose` also the suppressed findings. */
  detail?: Detail;
}

/** Without `tool`, SARIF names pinwatch with no version: a pure formatter does not know which package it is in. */
export const DEFAULT_TOOL: NonNullable<FindingsReportOptions['tool']> = { name: 'pinwatch' };

export interface FindingCounts {
  error: number;
  warning: number;
  note: number;
  suppressed: number;
  inline: number;
  baseline: number;
}

export function countFindings(findings: readonly Finding[]): FindingCounts {
  const c: FindingCounts = { error: 0, warning: 0, note: 0, suppressed: 0, inline: 0, baseline: 0 };
  for (const f of findings) {
    if (f.suppressed) {
      c.suppressed++;
      c[f.suppressed.kind]++;
    } else c[f.severity]++;
  }
  return c;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `3 errors, 1 warning, 0 notes (2 suppressed: 1 inline, 1 baseline)` */
export function summaryLine(findings: readonly Finding[]): string {
  const c = countFindings(findings);
  const active = c.error + c.warning + c.note;
  const head = active === 0 ? 'no findings' : `${plural(active, 'finding')}: ${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${plural(c.note, 'note')}`;
  if (c.suppressed === 0) return head;
  return `${head} (${c.suppressed} suppressed: ${c.inline} inline, ${c.baseline} by baseline)`;
}

/** `file:line:col`, `file:line`, `file`, or `(no file)`. */
export function locationText(f: { file?: string; line?: number; column?: number }): string {
  if (!f.file) return '(no file)';
  const file = plainField(f.file);
  if (!f.line) return file;
  return f.column ? `${file}:${f.line}:${f.column}` : `${file}:${f.line}`;
}

/** Rule metadata by id: lint's catalog, then the caller's. */
export function ruleCatalog(options: FindingsReportOptions): Map<string, RuleMeta> {
  return new Map([...LINT_RULES, ...(options.rules ?? [])].map((r) => [r.id, r]));
}

/** The rule page's URL when a published docs base is given (`docsBase`), else undefined. */
export function helpUri(id: string, options: FindingsReportOptions): string | undefined {
  return options.docsBase ? `${options.docsBase}${id}.md` : undefined;
}

/** Where the rule page is in the package, for readers without a docs URL. */
export function rulePagePath(id: string): string {
  return `${RULE_DOCS_PATH}${id}.md`;
}

export const SEVERITY_ORDER: readonly Severity[] = ['error', 'warning', 'note'];
