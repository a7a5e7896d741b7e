/**
 * Apply inline directives and the baseline to findings of any command, and
 * report the directives themselves (`suppression-without-reason`,
 * `suppression-unknown-rule`, `unused-suppression`). Suppressed findings stay
 * in the list, marked; they only stop counting for the exit code.
 */
import type { Finding } from '../model/index.js';
import type { Baseline, BaselineEntry } from './baseline.js';
import { directiveCovers, parseDirectives, type Directive } from './suppressions.js';

export interface InlineOptions {
  /** Text of a repo-relative file; undefined when it cannot be read. */
  fileText?: (file: string) => string | undefined;
  /** Extra files whose directives count (files with pins but no findings, for unused-suppression). */
  files?: Iterable<string>;
  /** Every rule id a directive may name. */
  knownRules: ReadonlySet<string>;
  /** Rules currently off: directives for them are neither used nor unused. */
  offRules: ReadonlySet<string>;
}

export interface DirectiveFinding {
  rule: 'suppression-without-reason' | 'suppression-unknown-rule' | 'unused-suppression';
  directive: Directive;
  message: string;
}

/** How the baseline was used: entries, how many matched, which matched nothing (fixed since). */
export interface BaselineUse {
  entries: number;
  matched: number;
  unused: BaselineEntry[];
}

function loadDirectives(files: Set<string>, fileText: InlineOptions['fileText']): Map<string, Directive[]> {
  const out = new Map<string, Directive[]>();
  if (!fileText) return out;
  for (const file of [...files].sort()) {
    const text = fileText(file);
    if (text === undefined || !text.includes('pinwatch-ignore')) continue;
    out.set(file, parseDirectives(file, text));
  }
  return out;
}

function applyInline(findings: Finding[], directives: Map<string, Directive[]>, used: Set<Directive>): void {
  for (const f of findings) {
    if (!f.file || f.suppressed) continue;
    const d = (directives.get(f.file) ?? []).find((x) => directiveCovers(x, f.rule, [f.line, f.pin?.line]));
    if (!d) continue;
    used.add(d);
    f.suppressed = d.reason ? { kind: 'inline', reason: d.reason } : { kind: 'inline' };
  }
}

/** Mark findings whose fingerprint the baseline lists. Mutates `findings`. */
export function applyBaseline(findings: Finding[], baseline: Baseline): BaselineUse {
  const byFp = new Map(baseline.findings.map((e) => [e.fingerprint, e]));
  const matched = new Set<string>();
  for (const f of findings) {
    if (f.suppressed || !f.fingerprint || !byFp.has(f.fingerprint)) continue;
    matched.add(f.fingerprint);
    f.suppressed = { kind: 'baseline', reason: 'in the baseline' };
  }
  const alive = new Set(findings.map((f) => f.fingerprint));
  const unused = baseline.findings.filter((e) => !alive.has(e.fingerprint));
  return { entries: baseline.findings.length, matched: matched.size, unused };
}

function judgeDirectives(all: Directive[], used: Set<Directive>, opts: InlineOptions): DirectiveFinding[] {
  const out: DirectiveFinding[] = [];
  for (const d of all) {
    const unknown = d.rules.filter((r) => !opts.knownRules.has(r));
    if (d.rules.length === 0) {
      out.push({ rule: 'suppression-unknown-rule', directive: d, message: `\`${d.text}\` names no rule; write \`# pinwatch-ignore <rule> <reason>\`` });
      continue;
    }
    if (unknown.length) out.push({ rule: 'suppression-unknown-rule', directive: d, message: `\`${d.text}\` names unknown rule ${unknown.map((r) => JSON.stringify(r)).join(', ')}` });
    if (!d.reason) out.push({ rule: 'suppression-without-reason', directive: d, message: `\`${d.text}\` suppresses ${d.rules.join(', ')} without saying why` });
    const live = d.rules.filter((r) => opts.knownRules.has(r) && !opts.offRules.has(r));
    if (!used.has(d) && live.length) out.push({ rule: 'unused-suppression', directive: d, message: `\`${d.text}\` suppresses nothing: no ${live.join(' or ')} finding on the line it covers` });
  }
  return out;
}

/** Mark findings covered by an inline directive and judge the directives. Mutates `findings`. */
export function applyInlineSuppressions(findings: Finding[], opts: InlineOptions): DirectiveFinding[] {
  const files = new Set<string>([...(opts.files ?? [])]);
  for (const f of findings) if (f.file) files.add(f.file);
  const directives = loadDirectives(files, opts.fileText);
  const used = new Set<Directive>();
  applyInline(findings, directives, used);
  return judgeDirectives([...directives.values()].flat(), used, opts);
}
