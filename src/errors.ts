/**
 * Typed errors shared by every layer. Each carries a stable string `code`, the
 * offending input quoted, and where known the file and line. The CLI turns any
 * PinwatchError into a one-line message and exit code 2; anything else is a bug.
 */

export interface ErrorLocation {
  file?: string;
  line?: number;
  column?: number;
}

export class PinwatchError extends Error {
  readonly code: string;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;

  constructor(code: string, message: string, where: ErrorLocation = {}, options?: { cause?: unknown }) {
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
