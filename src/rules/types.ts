/**
 * The rule contract: a rule reads plain inputs (pins, the build model, the
 * config, what scan could not read) and returns raw findings. The lint engine
 * turns them into `Finding`s: levels, fingerprints, suppressions, baseline.
 */
import type { Config, RuleLevel } from '../config/types.js';
import type { Pin, Problem, RelatedLocation, SpanField } from '../model/index.js';
import type { PinStamp, BuildModel } from '../producers/index.js';
import type { SkippedFile } from '../scan/index.js';

/** What a rule is, for docs, `--help`-like listings and SARIF `tool.driver.rules`. */
export interface RuleMeta {
  id: string;
  /** Level when `rules:` in the config says nothing; `off` rules run only when enabled. */
  defaultLevel: RuleLevel;
  /** Level an `off`-by-default rule is described with (SARIF defaultConfiguration.level). */
  enabledLevel?: 'error' | 'warning' | 'note';
  /** One line: what is wrong. */
  title: string;
  /** Why it matters, a few sentences. */
  description: string;
  /** One sentence on how to fix it. */
  hint: string;
}

/** The parts of a finding's identity that survive unrelated edits (no line numbers). */
export interface FindingIdentity {
  file?: string;
  keyPath?: string;
  repository?: string;
  /** Anything else that tells two findings of one rule apart (producer id, problem code). */
  extra?: string;
}

/** What a rule returns; the engine adds severity, fingerprint and suppression. */
export interface RawFinding {
  rule: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  pin?: Pin;
  evidence?: unknown;
  related?: RelatedLocation[];
  /** Overrides the catalog hint when the fix depends on the case. */
  hint?: string;
  /**
   * The stored field the finding is about. When a pin keeps its fields on several
   * lines (a split map), the finding points at this field's line, not the map's first.
   */
  field?: SpanField;
  identity: FindingIdentity;
}

/** Everything a rule may read. Plain data: tests build it by hand. */
export interface RuleInput {
  pins: readonly Pin[];
  model: BuildModel;
  config: Config;
  /** Files scan could not parse (scraped) or not read at all. */
  skipped: readonly SkippedFile[];
  /** Problems inside files scan did read (invalid refs, …). */
  problems: readonly Problem[];
  /** The producer writes that stamp a pin (computed once by the engine). */
  stampsOf(pin: Pin): readonly PinStamp[];
  /** Text of a repo-relative file, when the caller can read files. */
  fileText?: (file: string) => string | undefined;
}

export interface RuleCheck {
  id: string;
  check(input: RuleInput): RawFinding[];
}
