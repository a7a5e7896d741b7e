/**
 * The baseline file: findings a team accepted when adopting pinwatch, keyed by
 * fingerprint, so lint fails only on new ones. Deterministic JSON (sorted, no
 * timestamps) so it diffs well in review.
 */
import { existsSync } from 'node:fs';
import { PinwatchError } from '../errors.js';
import type { Finding } from '../model/index.js';
import { readRegularFile } from '../util/safe-read.js';

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
    ...(f.pin ? { repository: f.pin.ref.name } : evidenceRepository(f) ? { repository: evidenceRepository(f) } : {}),
    message: f.message,
  };
}

/** A finding without a pin (stale's, one per image) names its repository in its evidence. */
function evidenceRepository(f: Finding): string | undefined {
  const r = (f.evidence as { repository?: unknown } | undefined)?.repository;
  return typeof r === 'string' ? r : undefined;
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

/**
 * Where JSON.parse failed, without its excerpt of the text: the file may be
 * anything (`baseline: /etc/shadow` through a symlink), so none of it is quoted.
 */
function jsonErrorWhere(text: string, e: Error): string {
  const pos = /position (\d+)/.exec(e.message);
  if (!pos) return text.trim() === '' ? 'the file is empty' : 'a syntax error';
  const offset = Number(pos[1]);
  const line = text.slice(0, offset).split('\n').length;
  return `a syntax error at line ${line}`;
}

/** Parse baseline text; `file` is used in messages. */
export function parseBaseline(text: string, file: string): Baseline {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw invalid(file, `is not JSON (${jsonErrorWhere(text, e as Error)})`);
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
  const read = readRegularFile(path);
  if ('refused' in read) throw new PinwatchError('baseline-unreadable', `baseline ${JSON.stringify(display)}: ${read.refused.reason}`, { file: display });
  return parseBaseline(read.bytes.toString('utf8'), display);
}
