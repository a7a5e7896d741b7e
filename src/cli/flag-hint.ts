/**
 * The flag hints the CLI adds to library errors. The library words an error in
 * its own terms (the repository root, a registry's insecure hosts) under a stable code; the
 * CLI knows which flag sets that input and says so, here and only here.
 */
import type { PinwatchError, PinwatchErrorCode } from '../errors.js';

interface Hint {
  /** Put after it (`…; expected --repo DIR`). */
  suffix?: string;
  /** Only when the message says this (a code that covers more than one cause). */
  when?: RegExp;
}

const INSECURE: Hint = { suffix: ' (pinwatch.yaml insecureRegistries, or --insecure-registry HOST)', when: /\binsecureRegistries\b/ };

// Typed by the closed code union: a hint for a code nothing throws does not compile.
const HINTS: Readonly<Partial<Record<PinwatchErrorCode, Hint>>> = {
  'repo-not-found': { suffix: '; expected --repo DIR' },
  'not-a-git-repo': { suffix: ' (or pass --repo DIR)' },
  'redirect-refused': INSECURE,
  'token-error': INSECURE,
  'registry-unreachable': INSECURE,
};

/** The hint for an error code (and message), if the CLI has one. */
export function flagHint(code: string, message = ''): Hint | undefined {
  const hint = Object.hasOwn(HINTS, code) ? HINTS[code as PinwatchErrorCode] : undefined;
  return hint && (!hint.when || hint.when.test(message)) ? hint : undefined;
}

/** The error's one-line description (`file:line: message`) with the flag hint for its code. */
export function describeWithFlagHint(e: PinwatchError): string {
  const hint = flagHint(e.code, e.message);
  return `${e.describe()}${hint?.suffix ?? ''}`;
}
