/**
 * Variable stores with scoping: a Makefile's global variables, and child scopes
 * for target-specific variables, automatic variables and `$(call)` arguments.
 * Implements the assignment operators' semantics (`=`, `:=`, `?=`, `+=`, `!=`).
 */
import type { AssignOp, Flavor, MakeVariable } from './types.js';

/** What a store's readers looked up (VariableStore.lookups). */
export interface VariableLookups {
  values: Set<string>;
  presence: Set<string>;
}

/** Recorded in VariableLookups.values when every name was enumerated (no name's absence can be assumed irrelevant). */
export const ALL_NAMES = '\0all';

export class VariableStore {
  private readonly vars = new Map<string, MakeVariable>();
  /**
   * While set, what was looked up in this store (directly, or through a child scope that does not define the
   * name): `get`'s names in `values`, `peek`'s in `presence`, and ALL_NAMES in `values` when `names()` enumerated
   * them. What a reading's answers could depend on: make/repo.ts derives a reading under one environment from a
   * reading under another when the names the two give differently were not looked up, or only peeked at while
   * both define them.
   */
  lookups: VariableLookups | undefined;

  constructor(private readonly parent?: VariableStore) {}

  get(name: string): MakeVariable | undefined {
    this.lookups?.values.add(name);
    return this.vars.get(name) ?? this.parent?.get(name);
  }

  /**
   * `get` for a caller that uses no more of the answer than whether it is defined, its origin and whether it is
   * exported, and copies its value (if at all) only into the same name (an assignment that is not `+=`, an
   * `export` line, `$(origin)`): such a caller does the same for any two environment variables of that name.
   */
  peek(name: string): MakeVariable | undefined {
    this.lookups?.presence.add(name);
    return this.vars.get(name) ?? this.parent?.peek(name);
  }

  set(name: string, variable: MakeVariable): void {
    this.vars.set(name, variable);
  }

  /** Define a simple (already expanded) variable in this scope. */
  setSimple(name: string, value: string, origin: MakeVariable['origin'] = 'automatic'): void {
    this.vars.set(name, { flavor: 'simple', value, origin });
  }

  child(): VariableStore {
    return new VariableStore(this);
  }

  /** This scope's own definitions, in definition order. */
  ownEntries(): [string, MakeVariable][] {
    return [...this.vars];
  }

  /** Replace this scope's own definitions with `entries`, in their order. */
  replaceOwn(entries: Iterable<[string, MakeVariable]>): void {
    this.vars.clear();
    for (const [k, v] of entries) this.vars.set(k, v);
  }

  /** Every visible name, innermost definition winning. */
  names(): string[] {
    this.lookups?.values.add(ALL_NAMES);
    const seen = new Set<string>(this.parent?.names() ?? []);
    for (const n of this.vars.keys()) seen.add(n);
    return [...seen];
  }
}

/**
 * Apply one assignment. `expand` expands text in the store's context (used for
 * `:=`, and for `+=` onto a simple variable); `shell` answers `!=`.
 */
export function assign(
  store: VariableStore,
  name: string,
  op: AssignOp,
  rawValue: string,
  expand: (text: string) => string,
  shell: (command: string) => string,
  exported?: boolean,
): void {
  // Only `+=` reads the value it replaces; the others look at whether the name is defined, its origin and export.
  const existing = op === '+=' ? store.get(name) : store.peek(name);
  if (existing?.origin === 'command line') return;
  const keepExport = exported ?? existing?.exported;
  const put = (flavor: Flavor, value: string) => store.set(name, { flavor, value, origin: 'file', ...(keepExport ? { exported: true } : {}) });
  switch (op) {
    case '=':
      return put('recursive', rawValue);
    case ':=':
    case '::=':
      return put('simple', expand(rawValue));
    case ':::=':
      return put('recursive', expand(rawValue).replace(/\$/g, '$$$$'));
    case '?=':
      if (existing === undefined) put('recursive', rawValue);
      else if (exported) store.set(name, { ...existing, exported: true });
      return;
    case '+=':
      if (existing === undefined) return put('recursive', rawValue);
      if (existing.flavor === 'simple') return put('simple', joinValue(existing.value, expand(rawValue)));
      return put('recursive', joinValue(existing.value, rawValue));
    case '!=':
      return put('simple', shell(expand(rawValue)));
  }
}

function joinValue(a: string, b: string): string {
  if (a === '') return b;
  if (b === '') return a;
  return `${a} ${b}`;
}
