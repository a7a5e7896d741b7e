/**
 * Types of the Make reader: the database a Makefile evaluates to (variables,
 * rules with their recipe lines and source positions) and the problems met on
 * the way. Shared by the reader, the expander and recipe evaluation.
 */

export type Flavor = 'recursive' | 'simple';

export interface MakeVariable {
  flavor: Flavor;
  /** Unexpanded text for `recursive`, expanded text for `simple`. */
  value: string;
  origin: 'file' | 'default' | 'automatic' | 'command line' | 'environment';
  exported?: boolean;
}

/** One recipe line as written (continuations joined), with its position. */
export interface RecipeLine {
  text: string;
  file: string;
  line: number;
}

export interface TargetAssignment {
  name: string;
  op: AssignOp;
  value: string;
}

export interface MakeRule {
  /** Target name (a pattern rule's target contains `%`). */
  target: string;
  prerequisites: string[];
  recipe: RecipeLine[];
  file: string;
  line: number;
  /** Stem for static pattern rules (`$*`), set when the rule came from `targets: pat: prereqs`. */
  stem?: string;
  /** Target-specific variables (`target: VAR := value`). */
  variables: TargetAssignment[];
  /** `target: prerequisites ;`: a recipe with no commands (a pattern rule so written makes its targets; one with no recipe at all cancels). */
  emptyRecipe?: true;
}

export type AssignOp = '=' | ':=' | '::=' | ':::=' | '?=' | '+=' | '!=';

/** File access the reader needs; the default reads the real file system. */
export interface MakeFileSystem {
  readFile(absPath: string): string | undefined;
  exists(absPath: string): boolean;
}
