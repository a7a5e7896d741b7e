/**
 * What a Makefile evaluates to: its variables, explicit and pattern rules, the
 * default goal and the files it read. Rule lookup (explicit first, then the
 * pattern rule with the shortest stem) lives here.
 */
import { matchPattern } from './scan.js';
import type { Problem } from '../model/index.js';
import type { MakeRule } from './types.js';
import { VariableStore } from './variables.js';

export interface MakeDatabase {
  /** Repo-relative path of the Makefile read first. */
  file: string;
  /** Absolute directory make runs in (`-C DIR`). */
  dir: string;
  vars: VariableStore;
  rules: Map<string, MakeRule>;
  patternRules: MakeRule[];
  /** First ordinary target, unless `.DEFAULT_GOAL` says otherwise. */
  defaultGoal?: string;
  /** Repo-relative paths of every file read (the Makefile and its includes). */
  files: string[];
  problems: Problem[];
}

export function emptyDatabase(file: string, dir: string): MakeDatabase {
  return { file, dir, vars: new VariableStore(), rules: new Map(), patternRules: [], files: [], problems: [] };
}

/** The rule that makes `target`: an explicit rule, else the best-matching pattern rule (with `stem`). */
export function findRule(db: MakeDatabase, target: string): { rule: MakeRule; stem?: string } | undefined {
  const explicit = db.rules.get(target);
  if (explicit && (explicit.recipe.length > 0 || explicit.prerequisites.length > 0 || explicit.stem !== undefined)) {
    return { rule: explicit, ...(explicit.stem !== undefined ? { stem: explicit.stem } : {}) };
  }
  let best: { rule: MakeRule; stem: string } | undefined;
  for (const rule of db.patternRules) {
    const stem = matchPattern(rule.target, target);
    if (stem !== undefined && (rule.recipe.length > 0 || rule.emptyRecipe) && (!best || stem.length < best.stem.length)) best = { rule, stem };
  }
  if (best) return best;
  return explicit ? { rule: explicit } : undefined;
}

/** Every explicit, non-special target name, in definition order. */
export function targetNames(db: MakeDatabase): string[] {
  return [...db.rules.keys()].filter((t) => !t.startsWith('.'));
}
