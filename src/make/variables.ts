/**
 * Variable stores with scoping: a Makefile's global variables, and child scopes
 * for target-specific variables, automatic variables and `$(call)` arguments.
 * Implements the assignment operators' semantics (`=`, `:=`, `?=`, `+=`, `!=`).
 */
import type { AssignOp, Flavor, MakeVariable } from './types.js';

export class VariableStore {
  private readonly vars = new Map<string, MakeVariable>();

  constructor(private readonly parent?: VariableStore) {}

  get(name: string): MakeVariable | undefined {
    return this.vars.get(name) ?? this.parent?.get(name);
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

  /** Every visible name, innermost definition winning. */
  names(): string[] {
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
  const existing = store.get(name);
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
