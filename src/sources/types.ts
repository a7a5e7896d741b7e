/** Build inputs: which paths, when changed, change an image. */

/**
 * How an InputPattern's `path` matches a repo-relative file path (optional; when
 * absent it is inferred: glob characters → `glob`, trailing `/` → `tree`, else `tree`
 * in its "the path itself or anything under it" sense).
 * - `tree`: the path itself and everything below it (`internal/` or `./` for the whole repo).
 * - `files`: the Go build's files directly in the directory `path` (a Go package directory: `.go`, cgo and
 *   assembly sources, `.syso`; matcher.ts GO_BUILD_FILE), not its other files nor subdirectories.
 * - `file`: exactly this file.
 * - `glob`: a glob (util/glob.ts: picomatch syntax, `dot: true`); a path under a matching directory matches too.
 */
export type InputKind = 'tree' | 'files' | 'file' | 'glob';

export interface InputPattern {
  /** Repo-relative path prefix (a directory ends with `/`) or exact file. */
  path: string;
  /** Why it is an input: `Dockerfile`, `COPY go.mod (Dockerfile:5)`, `go import ./internal/x`, `config inputs`. */
  why: string;
  /** How `path` matches; see InputKind. Optional: inferred from `path` when absent. */
  kind?: InputKind;
}

export interface BuildInputs {
  /** Short image name or repository. */
  image: string;
  inputs: InputPattern[];
  /**
   * Repo-relative globs or prefixes excluded (.dockerignore, config ignore, build-ignored Go files).
   * Ordered, .dockerignore style: an entry starting with `!` re-includes, the last entry that
   * matches a path decides, and an entry also matches everything below a matching directory.
   */
  ignore: string[];
  /** Human-readable derivation steps, in order, for `explain`. */
  steps: string[];
  /** Set when inputs could not be derived; stale then reports `unknown` with this reason. */
  unknownReason?: string;
}
