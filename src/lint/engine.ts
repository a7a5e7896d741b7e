/**
 * The lint engine: run every rule over plain inputs, give each finding its
 * level (catalog default, `rules:` override), hint and fingerprint, then apply
 * inline directives and the baseline. No file system: texts come through
 * `fileText`, so tests build every input by hand.
 */
import { locateField } from './field-location.js';
import type { Config } from '../config/types.js';
import type { Finding, Pin, Problem } from '../model/index.js';
import type { BuildModel } from '../producers/index.js';
import { stampIndex, type PinStamp } from '../producers/stamps.js';
import { LINT_RULES, lintRuleMeta, RULE_CHECKS, type FindingIdentity, type RawFinding } from '../rules/index.js';
import type { SkippedFile } from '../scan/index.js';
import type { Baseline } from './baseline.js';
import { disambiguate, fingerprintOf } from './fingerprint.js';
import { levelFor } from './levels.js';
import { applyBaseline, applyInlineSuppressions, type BaselineUse, type DirectiveFinding } from './suppress.js';

export interface LintInput {
  pins: readonly Pin[];
  model: BuildModel;
  config: Config;
  skipped?: readonly SkippedFile[];
  problems?: readonly Problem[];
  /** Text of a repo-relative file, for inline directives; undefined when unreadable. */
  fileText?: (file: string) => string | undefined;
  baseline?: Baseline;
  /** Rule ids besides lint's that directives may name (e.g. `stale-image` under `check`). */
  extraRuleIds?: readonly string[];
  /**
   * Findings of other commands (`check` passes stale's) to run through the same
   * levels (`rules:` overrides), suppressions, baseline and order. Their rule ids
   * count as known for directives.
   */
  extraFindings?: readonly Finding[];
  /** Which producer writes stamp a pin; defaults to the one rule, `stampIndex(model)` (producers/stamps.ts). */
  stampsOf?: (pin: Pin) => readonly PinStamp[];
}

export interface LintResult {
  /** Sorted by file, line, column, rule; suppressed ones included and marked. */
  findings: Finding[];
  baseline?: BaselineUse;
}

interface Pending {
  finding: Finding;
  identity: FindingIdentity;
}

function toFinding(raw: RawFinding, config: Config): Pending | undefined {
  const level = levelFor(raw.rule, config);
  if (level === 'off') return undefined;
  const f: Finding = { rule: raw.rule, severity: level, message: raw.message };
  if (raw.file !== undefined) f.file = raw.file;
  if (raw.line !== undefined) f.line = raw.line;
  if (raw.column !== undefined) f.column = raw.column;
  const hint = raw.hint ?? lintRuleMeta(raw.rule)?.hint;
  if (hint) f.hint = hint;
  if (raw.pin) f.pin = raw.pin;
  if (raw.evidence !== undefined) f.evidence = raw.evidence;
  if (raw.related?.length) f.related = raw.related;
  return { finding: f, identity: raw.identity };
}

function compareFindings(a: Finding, b: Finding): number {
  return (
    (a.file ?? '\uffff').localeCompare(b.file ?? '\uffff') ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.column ?? 0) - (b.column ?? 0) ||
    a.rule.localeCompare(b.rule) ||
    a.message.localeCompare(b.message)
  );
}

/** Sort, then fingerprint in that order so occurrence suffixes are stable. */
function finalize(pending: Pending[]): Finding[] {
  pending.sort((a, b) => compareFindings(a.finding, b.finding));
  const fps = disambiguate(pending.map((p) => fingerprintOf(p.finding.rule, p.identity)));
  return pending.map((p, i) => ({ ...p.finding, fingerprint: fps[i] }));
}

function directiveRaw(d: DirectiveFinding): RawFinding {
  const { directive } = d;
  return {
    rule: d.rule,
    message: d.message,
    file: directive.file,
    line: directive.line,
    identity: { file: directive.file, extra: directive.text },
    evidence: { rules: directive.rules, reason: directive.reason || undefined },
  };
}

function memoize(f: (pin: Pin) => readonly PinStamp[]): (pin: Pin) => readonly PinStamp[] {
  const cache = new Map<Pin, readonly PinStamp[]>();
  return (pin) => {
    let v = cache.get(pin);
    if (!v) cache.set(pin, (v = f(pin)));
    return v;
  };
}

/** Another command's finding: `rules:` may relevel or drop it; it gets a fingerprint if it has none. */
function adopt(f: Finding, config: Config): Finding | undefined {
  const level = config.rules[f.rule];
  if (level === 'off') return undefined;
  const out: Finding = { ...f, ...(level ? { severity: level } : {}) };
  if (!out.fingerprint) out.fingerprint = fingerprintOf(f.rule, { file: f.file, keyPath: f.pin?.keyPath, repository: f.pin?.ref.name });
  return out;
}

/** Run every lint rule and apply suppressions and the baseline. */
export function lint(input: LintInput): LintResult {
  const stampsOf = memoize(input.stampsOf ?? stampIndex(input.model));
  const ruleInput = { pins: input.pins, model: input.model, config: input.config, skipped: input.skipped ?? [], problems: input.problems ?? [], stampsOf, fileText: input.fileText };
  const raws = RULE_CHECKS.flatMap((rule) => rule.check(ruleInput)).map((r) => locateField(r, input.fileText));
  const own = finalize(raws.map((r) => toFinding(r, input.config)).filter((p): p is Pending => p !== undefined));
  const extraFindings = input.extraFindings ?? [];
  const others = extraFindings.map((f) => adopt(f, input.config)).filter((f): f is Finding => f !== undefined);
  const findings = [...own, ...others].sort(compareFindings);

  const knownRules = new Set([...LINT_RULES.map((r) => r.id), ...(input.extraRuleIds ?? []), ...extraFindings.map((f) => f.rule)]);
  const offRules = new Set([...knownRules].filter((r) => levelFor(r, input.config) === 'off'));
  const directiveFindings = applyInlineSuppressions(findings, {
    fileText: input.fileText,
    files: input.pins.map((p) => p.file),
    knownRules,
    offRules,
  });
  const extra = finalize(directiveFindings.map((d) => toFinding(directiveRaw(d), input.config)).filter((p): p is Pending => p !== undefined));
  const all = [...findings, ...extra].sort(compareFindings);
  const baseline = input.baseline ? applyBaseline(all, input.baseline) : undefined;
  return baseline ? { findings: all, baseline } : { findings: all };
}
