/**
 * Log framing stripped before matching: ANSI colours, timestamps, levels, klog
 * headers (`E0101 12:00:00.000000 1 file.go:12] `), test-runner prefixes
 * (`file_test.go:88: `), bracketed pod/step labels, and structured lines (JSON
 * objects and logfmt `msg=… error=…`), whose message fields are decoded. Pure.
 */

/** The texts of one log line worth matching: the message first, then error fields. */
export interface FramedLine {
  texts: string[];
}

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
const PREFIXES: readonly RegExp[] = [
  /^\s+/,
  // RFC 3339 / ISO 8601 / `2026-09-15 08:09:00,123` timestamps
  /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\s*/,
  // klog: Lmmdd hh:mm:ss.uuuuuu threadid file:line]
  /^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+\s+[^\]\s]+:\d+\]\s?/,
  // Go's log package: 2026/09/15 08:09:00[.000000]
  /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?\s+/,
  // a bare time of day
  /^\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\s+/,
  // levels, bare or bracketed
  /^\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|PANIC|CRIT|CRITICAL)\]?:?\s+/i,
  // test runners and loggers that print the call site: `backup_test.go:88: `, `main.go:12: `
  /^[\w./-]+\.(?:go|py|ts|js|sh):\d+:(?:\d+:)?\s+/,
  // `--- FAIL: TestX (0.01s)` stays a message; `[pod/x/c] ` labels, `| ` tables go
  /^\[[^\]\n]{1,80}\]\s+/,
  /^\|\s+/,
];

const JSON_FIELDS = ['msg', 'message', 'error', 'err', 'errorVerbose', 'reason'];
const LOGFMT_FIELD = /(?:^|\s)(msg|message|error|err|reason)=("(?:[^"\\]|\\.)*"|\S+)/g;

function stripPrefixes(line: string): string {
  let s = line;
  for (let round = 0; round < 8; round++) {
    const before = s;
    for (const p of PREFIXES) s = s.replace(p, '');
    if (s === before) break;
  }
  return s;
}

function decodeLogfmt(v: string): string {
  if (!v.startsWith('"')) return v;
  try {
    return JSON.parse(v) as string;
  } catch {
    return v.slice(1, -1).replace(/\\(.)/g, '$1');
  }
}

function jsonTexts(s: string): string[] | undefined {
  const at = s.indexOf('{');
  if (at < 0 || !s.trimEnd().endsWith('}')) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(s.slice(at));
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const rec = doc as Record<string, unknown>;
  const texts: string[] = [];
  for (const k of JSON_FIELDS) {
    const v = rec[k];
    if (typeof v === 'string' && v !== '') texts.push(v);
    else if (v && typeof v === 'object' && typeof (v as Record<string, unknown>).message === 'string') texts.push((v as Record<string, string>).message!);
  }
  return texts;
}

/** What of `line` to match: JSON and logfmt fields decoded, other framing removed. */
export function stripFraming(line: string): FramedLine {
  const clean = line.replace(ANSI, '').replace(/\r$/, '');
  const s = stripPrefixes(clean);
  const json = jsonTexts(s);
  if (json) return { texts: json };
  if (/(?:^|\s)(?:msg|message|error|err)=/.test(s)) {
    const texts = [...s.matchAll(LOGFMT_FIELD)].map((m) => decodeLogfmt(m[2]!)).filter((t) => t !== '');
    if (texts.length > 0) return { texts };
  }
  return { texts: s === '' ? [] : [s] };
}

/** Whether an unmatched line looks like an error worth naming in the report (level, klog E/F, `error`, `fail`, `panic`). */
export function looksLikeError(line: string): boolean {
  return /^\s*(?:\S+\s+)?[EF]\d{4} \d{2}:\d{2}:\d{2}/.test(line) || /\b(?:error|err|fail(?:ed|ure)?|panic|fatal|denied|refused|invalid)\b/i.test(line);
}
