/**
 * Typed errors shared by every layer. Each carries a stable `code` from the
 * closed list below (documented, one row each, in docs/errors.md), the
 * offending input quoted, and where known the file and line. The CLI turns any
 * PinwatchError into `pinwatch: [code] file:line: message` and exit 2; anything
 * else is a bug.
 */

/** The registry client's codes (RegistryError, src/registry/errors.ts). */
export const REGISTRY_ERROR_CODES = [
  'registry-unreachable',
  'registry-timeout',
  'registry-http-error',
  'registry-retries-exhausted',
  'unauthorized',
  'insufficient-scope',
  'token-error',
  'manifest-unknown',
  'blob-unknown',
  'name-unknown',
  'digest-mismatch',
  'bad-manifest',
  'manifest-too-large',
  'blob-too-large',
  'response-too-large',
  'redirect-refused',
  'bad-credentials-file',
  // registry writes (release: promote, mirror)
  'blob-upload-failed',
] as const;

/** Every code a PinwatchError (or a subclass) can carry. */
export const PINWATCH_ERROR_CODES = [
  // command-line options (commander's own parse errors are printed by commander)
  'missing-option',
  'conflicting-options',
  'unsupported-option',
  'invalid-format',
  'invalid-timeout',
  'invalid-fail-on-stale',
  'invalid-max-age',
  'invalid-unknown-mode',
  'invalid-dir-list',
  // config
  'config-missing',
  'config-unreadable',
  'config-invalid',
  'invalid-first-party-prefix',
  // paths and the repository
  'repo-not-found',
  'path-outside-repo',
  'path-unresolvable',
  // image references and IMAGE arguments
  'invalid-ref',
  'image-unknown',
  'image-ambiguous',
  // git
  'not-a-git-repo',
  'git-unavailable',
  'git-failed',
  'git-output',
  'git-no-head',
  'unknown-revision',
  'no-merge-base',
  'shallow-clone',
  // lint baseline
  'baseline-missing',
  'baseline-unreadable',
  'baseline-invalid',
  // repin
  'repin-repository-mismatch',
  'repin-digest-unresolved',
  'repin-unreadable',
  'repin-file-changed',
  'repin-verify',
  // in-place edits
  'edit-overlap',
  'edit-out-of-range',
  'edit-no-token',
  'edit-token-mismatch',
  'edit-ambiguous',
  'edit-outside-scalar',
  'edit-yaml-invalid',
  'edit-readback',
  // writing files
  'write-in-progress',
  'write-not-regular-file',
  'write-failed',
  'not-latin1',
  'step-summary-unwritable',
  // demo
  'demo-dir-not-empty',
  // CI integration (issue 14): repin --from-build-metadata
  'build-metadata-invalid',
  'invalid-since',
  'log-unreadable',
  'invalid-min-literal',
  ...REGISTRY_ERROR_CODES,
  // running (pod lists and kubectl)
  'pods-invalid',
  'pods-unreadable',
  'kubectl-failed',
  'invalid-fail-on-running',
  // release: promote, mirror, compare
  'invalid-release-tag',
  'invalid-mirror-prefix',
  'release-verify',
  // the persistent cache (pinwatch cache clear)
  'cache-clear-failed',
] as const;

export type PinwatchErrorCode = (typeof PINWATCH_ERROR_CODES)[number];

export interface ErrorLocation {
  file?: string;
  line?: number;
  column?: number;
}

export class PinwatchError extends Error {
  readonly code: PinwatchErrorCode;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;

  constructor(code: PinwatchErrorCode, message: string, where: ErrorLocation = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PinwatchError';
    this.code = code;
    this.file = where.file;
    this.line = where.line;
    this.column = where.column;
  }

  /** `file:line: message` when the location is known, else the message. */
  describe(): string {
    if (!this.file) return this.message;
    const at = this.line ? `${this.file}:${this.line}${this.column ? `:${this.column}` : ''}` : this.file;
    return `${at}: ${this.message}`;
  }
}

export function isPinwatchError(e: unknown): e is PinwatchError {
  return e instanceof PinwatchError;
}
