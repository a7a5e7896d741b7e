/**
 * Per-target recipe evaluation: bind the automatic variables (`$@`, `$<`, `$^`,
 * `$*`, …) and target-specific variables in a scope of their own, then expand
 * each recipe line in order, so an `$(eval X := …)` on one line is seen by the
 * next (and by nothing outside this target).
 */
import { findRule, type MakeDatabase } from './database.js';
import { expand } from './expand.js';
import type { MakeReader } from './reader.js';
import { marker } from './markers.js';
import type { MakeRule } from './types.js';
import { assign, type VariableStore } from './variables.js';

export interface ExpandedCommand {
  /** The shell command after make expansion, `@`/`-`/`+` prefixes removed. */
  text: string;
  /** Where its recipe line is written. */
  file: string;
  line: number;
}

export interface ExpandedRecipe {
  target: string;
  rule: MakeRule;
  stem?: string;
  prerequisites: string[];
  commands: ExpandedCommand[];
}

/** Expand the recipe that makes `target`, or undefined when no rule makes it. */
export function expandRecipe(reader: MakeReader, target: string): ExpandedRecipe | undefined {
  const db = reader.db;
  const found = findRule(db, target);
  if (!found) return undefined;
  const { rule, stem } = found;
  const vars = db.vars.child();
  const prerequisites = rule.target.includes('%') && stem !== undefined ? rule.prerequisites.map((p) => p.replace('%', stem)) : rule.prerequisites;
  bindAutomatic(vars, target, prerequisites, stem);
  applyTargetVariables(reader, db, target, vars);
  const commands: ExpandedCommand[] = [];
  for (const line of rule.recipe) {
    const ctx = reader.context(vars, line.file, line.line);
    const text = expand(line.text, ctx);
    for (const piece of text.split('\n')) {
      const command = piece.replace(/^[ \t@+-]+/, '').trim();
      if (command !== '') commands.push({ text: command, file: line.file, line: line.line });
    }
  }
  return { target, rule, ...(stem !== undefined ? { stem } : {}), prerequisites, commands };
}

function bindAutomatic(vars: VariableStore, target: string, prerequisites: string[], stem: string | undefined): void {
  vars.setSimple('@', target);
  vars.setSimple('<', prerequisites[0] ?? '');
  vars.setSimple('^', [...new Set(prerequisites)].join(' '));
  vars.setSimple('+', prerequisites.join(' '));
  vars.setSimple('?', prerequisites.join(' '));
  vars.setSimple('*', stem ?? '');
  vars.setSimple('|', '');
}

/** Target-specific (`t: X = v`) and pattern-specific (`%-x: X = v`) variables, in definition order. */
function applyTargetVariables(reader: MakeReader, db: MakeDatabase, target: string, vars: VariableStore): void {
  const sources = [...db.patternRules.filter((r) => r.variables.length > 0 && matches(r.target, target)), db.rules.get(target)];
  for (const r of sources) {
    if (!r) continue;
    const ctx = reader.context(vars, r.file, r.line);
    for (const a of r.variables) assign(vars, a.name, a.op, a.value, (x) => expand(x, ctx), (c) => marker('shell', c));
  }
}

function matches(pattern: string, target: string): boolean {
  const p = pattern.indexOf('%');
  return target.startsWith(pattern.slice(0, p)) && target.endsWith(pattern.slice(p + 1));
}
