/**
 * Rules on what scan and the build model could not read: `unparsed-file`,
 * `invalid-ref`, `build-recipe-problem`. Nothing that could not be handled is
 * dropped: it becomes a finding with the reason.
 */
import { compileGlob } from '../util/glob.js';
import type { Problem } from '../model/index.js';
import { tryParseReference } from '../reference/index.js';
import { canonicalRepository } from '../config/aliases.js';
import { unresolvedFromArgs } from '../collect/dockerfile/collect.js';
import { buildArgsOf } from '../dockerfile/build-args.js';
import type { RawFinding, RuleCheck, RuleInput } from './types.js';

function declaredExtra(input: RuleInput): (file: string) => boolean {
  if (input.config.extraFiles.length === 0) return () => false;
  const match = compileGlob(input.config.extraFiles);
  return (file) => match(file);
}

/** Problem codes about reading the file itself rather than one value in it. */
const FILE_PROBLEM = /parse|collector|unreadable|binary|utf8|symlink|too-large/;

/**
 * Notes of the scan's journal recovery (RECOVERY_CODES in journal/journal.ts:
 * `interrupted-write-*`, `stale-temp-removed`): what pinwatch did to finish or undo
 * an interrupted write of its own, not a defect of the repository, so no rule
 * flags them; lint and check print them as notes (cli/notes.ts). Spelt as a
 * pattern here because rules/ must not load journal/ (it does I/O).
 */
export function isRecoveryNote(problem: Pick<Problem, 'code'>): boolean {
  return /^interrupted-write-|^stale-temp-removed$/.test(problem.code);
}

/**
 * A scan problem is about one ref (`invalid-ref`, `incomplete-ref`, `templated-ref`,
 * `unresolved-ref`, `conflicting-digest`, `empty-tag-file`, …) unless its code says
 * the file itself could not be read.
 */
export function isRefProblem(problem: Problem): boolean {
  return !FILE_PROBLEM.test(problem.code) && !isRecoveryNote(problem);
}

function skippedFindings(input: RuleInput, declared: (f: string) => boolean): RawFinding[] {
  return input.skipped
    .filter((s) => !(s.scraped && declared(s.file)))
    .map((s) => ({
      rule: 'unparsed-file',
      message: s.scraped
        ? `${s.file} did not parse (${s.reason}); its refs were found by a text scrape only`
        : `${s.file} could not be read (${s.code}: ${s.reason}); refs in it, if any, are not known`,
      file: s.file,
      line: s.line,
      identity: { file: s.file, extra: s.code },
      evidence: { code: s.code, reason: s.reason, scraped: s.scraped ?? false },
      ...(EXTRA_FILE_CODES.has(s.code) ? { hint: EXTRA_FILE_HINT } : {}),
    }));
}

/** A declared `extraFiles` entry that names nothing: the catalog hint (fix the syntax, declare it) does not apply. */
const EXTRA_FILE_CODES = new Set(['extra-file-missing', 'extra-file-no-match']);
const EXTRA_FILE_HINT = 'Fix or remove the `extraFiles` entry in pinwatch.yaml: it names no file in this tree (moved or renamed?).';

/** Scraped pins from a file that `skipped` does not already mention. */
function scrapedPinFindings(input: RuleInput, declared: (f: string) => boolean, known: Set<string>): RawFinding[] {
  const files = new Map<string, number>();
  for (const pin of input.pins) {
    if (pin.scraped && !declared(pin.file) && !known.has(pin.file)) files.set(pin.file, Math.min(files.get(pin.file) ?? pin.line, pin.line));
  }
  return [...files].map(([file, line]) => ({
    rule: 'unparsed-file',
    message: `${file} was read by a text scrape only; its refs carry no key paths`,
    file,
    line,
    identity: { file, extra: 'scraped' },
  }));
}

function otherProblemFindings(input: RuleInput, known: Set<string>): RawFinding[] {
  return input.problems
    .filter((p) => !isRefProblem(p) && !isRecoveryNote(p) && !known.has(`${p.file}|${p.code}`))
    .map((p) => ({
      rule: 'unparsed-file',
      message: `part of ${p.file} could not be read (${p.code}): ${p.reason}`,
      file: p.file,
      line: p.line,
      column: p.column,
      identity: { file: p.file, extra: `${p.code}|${p.reason}` },
      evidence: { code: p.code, reason: p.reason },
    }));
}

export const unparsedFile: RuleCheck = {
  id: 'unparsed-file',
  check: (input) => {
    const declared = declaredExtra(input);
    const skippedFiles = new Set(input.skipped.map((s) => s.file));
    const skippedCodes = new Set(input.skipped.map((s) => `${s.file}|${s.code}`));
    return [...skippedFindings(input, declared), ...scrapedPinFindings(input, declared, skippedFiles), ...otherProblemFindings(input, skippedCodes)];
  },
};

/**
 * `image: {{ .Values.x }}` in a declared Helm template is how charts read values,
 * not a broken pin: scan still lists it under problems, lint does not flag it.
 */
function expectedTemplate(p: Problem, declared: (f: string) => boolean): boolean {
  return p.code === 'templated-ref' && p.file !== undefined && declared(p.file);
}

/**
 * `FROM ${BASE_IMAGE}` with no default, in a Dockerfile every recipe of which passes a value for
 * each ARG it lacks (`--build-arg BASE_IMAGE=…`: a compose `build.args`, a Makefile): the build
 * names the base, and the value is read where the recipe stores it (getsentry/self-hosted's
 * clickhouse/Dockerfile). A Dockerfile no recipe builds, or one built without the value, stays a finding.
 */
function setByEveryBuild(model: RuleInput['model']): (p: Problem) => boolean {
  return (p) => {
    const args = unresolvedFromArgs(p);
    if (!args || p.file === undefined) return false;
    const builds = model.recipes.filter((r) => r.dockerfile === p.file);
    return builds.length > 0 && builds.every((r) => {
      const given = buildArgsOf(r.command);
      return args.every((a) => given.get(a) !== undefined);
    });
  };
}

export const invalidRef: RuleCheck = {
  id: 'invalid-ref',
  check: (input) => {
    const declared = declaredExtra(input);
    const setByBuild = setByEveryBuild(input.model);
    return input.problems.filter((p) => isRefProblem(p) && !expectedTemplate(p, declared) && !setByBuild(p)).map((p) => ({
      rule: 'invalid-ref',
      message: p.code === 'invalid-ref' ? p.reason : `${p.code}: ${p.reason}`,
      file: p.file,
      line: p.line,
      column: p.column,
      identity: { file: p.file, extra: `${p.code}|${p.reason}` },
      evidence: { code: p.code },
    }));
  },
};

/** Build problems that record a guess pinwatch made, not a defect in the recipe. */
export function isAssumption(code: string): boolean {
  return /assumed|guessed/.test(code);
}

/**
 * A problem about one image's build (Problem `repository`) is answered once
 * pinwatch.yaml declares that image's inputs or Dockerfile: it stays in `explain`.
 */
function answeredByConfig(config: RuleInput['config']): (p: Problem) => boolean {
  const canonical = (repository: string) => canonicalRepository(tryParseReference(repository)?.name ?? repository, config.aliases);
  const declared = new Set(Object.values(config.images).flatMap((i) => (i.repository && (i.inputs?.length || i.dockerfile) ? [canonical(i.repository)] : [])));
  return (p) => p.repository !== undefined && declared.has(canonical(p.repository));
}

function buildProblemFindings({ model, config }: Pick<RuleInput, 'model' | 'config'>, rule: 'build-recipe-problem' | 'build-recipe-assumption'): RawFinding[] {
  const answered = answeredByConfig(config);
  return model.problems
    .filter((p) => isAssumption(p.code) === (rule === 'build-recipe-assumption') && !answered(p))
    .map((p) => ({
      rule,
      message: `${p.code}: ${p.reason}`,
      file: p.file,
      line: p.line,
      identity: { file: p.file, extra: `${p.code}|${p.reason}` },
      evidence: { code: p.code },
    }));
}

export const buildRecipeProblem: RuleCheck = {
  id: 'build-recipe-problem',
  check: (input) => buildProblemFindings(input, 'build-recipe-problem'),
};

export const buildRecipeAssumption: RuleCheck = {
  id: 'build-recipe-assumption',
  check: (input) => buildProblemFindings(input, 'build-recipe-assumption'),
};
