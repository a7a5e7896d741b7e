/** Build inputs: which paths, when changed, change an image. */

export interface InputPattern {
  /** Repo-relative path prefix (a directory ends with `/`) or exact file. */
  path: string;
  /** Why it is an input: `Dockerfile`, `COPY go.mod (Dockerfile:5)`, `go import ./internal/x`, `config inputs`. */
  why: string;
}

export interface BuildInputs {
  /** Short image name or repository. */
  image: string;
  inputs: InputPattern[];
  /** Repo-relative globs or prefixes excluded (.dockerignore, config ignore, build-ignored Go files). */
  ignore: string[];
  /** Human-readable derivation steps, in order, for `explain`. */
  steps: string[];
  /** Set when inputs could not be derived; stale then reports `unknown` with this reason. */
  unknownReason?: string;
}
