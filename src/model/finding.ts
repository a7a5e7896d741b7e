/**
 * Findings: what lint, stale and check report. Formatters read only this shape,
 * never the command that produced it.
 */
import type { Pin } from './pin.js';

export type Severity = 'error' | 'warning' | 'note';

/** The lowest severity that fails a run (`never`: none does). */
export const FAIL_ON_LEVELS = ['error', 'warning', 'never'] as const;
export type FailOn = (typeof FAIL_ON_LEVELS)[number];

export interface Finding {
  /** Rule slug: `floating-tag`, `stale-image`, … */
  rule: string;
  severity: Severity;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  /** One sentence on how to fix it. */
  hint?: string;
  pin?: Pin;
  /** Rule-specific detail for JSON consumers. */
  evidence?: unknown;
  /** Stable identity across runs (baseline, SARIF partialFingerprints). */
  fingerprint?: string;
  /** Other places that belong to the same finding (the other digest, the second producer). */
  related?: RelatedLocation[];
  /** Set when a suppression or the baseline covers the finding. */
  suppressed?: { kind: 'inline' | 'baseline'; reason?: string };
}

/** A secondary location of a finding (SARIF relatedLocations). */
export interface RelatedLocation {
  file: string;
  line?: number;
  column?: number;
  message?: string;
}

export const SEVERITY_RANK: Record<Severity, number> = { note: 0, warning: 1, error: 2 };
