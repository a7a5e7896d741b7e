/**
 * The baseline file: findings a team accepted when adopting pinwatch, keyed by
 * fingerprint, so lint fails only on new ones. Deterministic JSON (sorted, no
 * timestamps) so it diffs well in review.
 */
import { existsSync, readFileSync } from 'node:fs';
import { PinwatchError } from '../errors.js';
import type { Finding } from '../model/index.js';

export const DEFAULT_BASELINE_FILE = '.pinwatch-baseline.json';
export const BASELINE_VERSION = 1;

export interface BaselineEntry {
  fingerprint: string;
  rule: string;
  file?: string;
  keyPath?: string;
  repository?: string;
  message: string;
}

export interface Baseline {
  version: number;
  findings: BaselineEntry[];
}

function entryOf(f: Finding): BaselineEntry {
  return {
    fingerprint: f.fingerprint ?? '',
    rule: f.rule,
    ...(f.file ? { file: f.file } : {}),
    ...(f.pin?.keyPath ? { keyPath: f.pin.keyPath } : {}),
    ...(f.pin ? { repository: f.pin.ref.name } : {}),
    message: f.message,
  };
}

const byFileRule = (a: BaselineEntry, b: BaselineEntry) =>
  (a.file ?? '').localeCompare(b.file ?? '') || a.rule.localeCompare(b.rule) || a.fingerprint.localeCompare(b.fingerprint);

/** The baseline for these findings (those not suppressed inline). */
export function baselineOf(findings: readonly Finding[]): Baseline {
  const entries = findings.filter((f) => f.suppressed?.kind !== 'inline' && f.fingerprint).map(entryOf);
  return { version: BASELINE_VERSION, findings: entries.sort(byFileRule) };
}

export function serializeBaseline(b: Baseline): string {
  return `${JSON.stringify(b, null, 2)}\n`;
}

function invalid(file: string, what: string): PinwatchError {
  return new PinwatchError('baseline-invalid', `baseline ${what}; expected {"version": 1, "findings": [{"fingerprint": "…", "rule": "…"}, …]} as written by pinwatch lint --write-baseline`, { file });
}

/** Parse baseline text; `file` is used in messages. */
export function parseBaseline(text: string, file: string): Baseline {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw invalid(file, `is not JSON (${(e as Error).message})`);
  }
  const d = data as Partial<Baseline> | null;
  if (!d || typeof d !== 'object' || !Array.isArray(d.findings)) throw invalid(file, 'has no "findings" list');
  if (d.version !== BASELINE_VERSION) throw invalid(file, `version is ${JSON.stringify(d.version)}, not ${BASELINE_VERSION}`);
  d.findings.forEach((e, i) => {
    if (!e || typeof e.fingerprint !== 'string' || typeof e.rule !== 'string') throw invalid(file, `entry ${i} has no string "fingerprint" and "rule"`);
  });
  return d as Baseline;
}

/**
 * Read the baseline at `path` (absolute). A missing file is `undefined` unless
 * `required` (a baseline named by the user must exist).
 */
export function readBaseline(path: string, display: string, required: boolean): Baseline | undefined {
  if (!existsSync(path)) {
    if (!required) return undefined;
    throw new PinwatchError('baseline-missing', `baseline ${JSON.stringify(display)} does not exist; create it with \`pinwatch lint --write-baseline ${display}\``, { file: display });
  }
  return parseBaseline(readFileSync(path, 'utf8'), display);
}
