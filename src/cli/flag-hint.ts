/**
 * The flag hints the CLI adds to library errors. The library words an error in
 * its own terms (the repository root, the repin target) under a stable code; the
 * CLI knows which flag sets that input and says so, here and only here.
 */
import type { PinwatchError } from '../errors.js';

interface Hint {
  /** Put before the message (`--to: …`). */
  prefix?: string;
  /** Put after it (`…; expected --repo DIR`). */
  suffix?: string;
  /** Only when the message says this (a code that covers more than one cause). */
  when?: RegExp;
}

const INSECURE: Hint = { suffix: ' (pinwatch.yaml insecureRegistries, or --insecure-registry HOST)', when: /\binsecureRegistries\b/ };

const HINTS: Readonly<Record<string, Hint>> = {
  'repo-not-found': { suffix: '; expected --repo DIR' },
  'not-a-git-repo': { suffix: ' (or pass --repo DIR)' },
  'repin-target-missing': { suffix: ': pass --to REF or --to-tag TAG' },
  'repin-target-invalid': { prefix: '--to: ' },
  'repin-target-repository': { prefix: '--to: ' },
  'redirect-refused': INSECURE,
  'token-error': INSECURE,
  'registry-unreachable': INSECURE,
  'insecure-registry': INSECURE,
};

/** The hint for an error code (and message), if the CLI has one. */
export function flagHint(code: string, message = ''): Hint | undefined {
  const hint = Object.hasOwn(HINTS, code) ? HINTS[code] : undefined;
  return hint && (!hint.when || hint.when.test(message)) ? hint : undefined;
}

/** The error's one-line description (`file:line: message`) with the flag hint for its code. */
export function describeWithFlagHint(e: PinwatchError): string {
  const hint = flagHint(e.code, e.message);
  return `${hint?.prefix ?? ''}${e.describe()}${hint?.suffix ?? ''}`;
}
