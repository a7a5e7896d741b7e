/**
 * The global flags as typed values: `--format` checked against what a command
 * supports, and `--first-party PREFIX` checked before the config is loaded (the
 * library says what is wrong with a prefix; the CLI names the flag).
 */
import { checkFirstPartyPrefixes } from '../../config/first-party.js';
import { isPinwatchError, PinwatchError } from '../../errors.js';
import type { CommandContext } from '../context.js';

/** Check --format against what a command supports; usage error (exit 2) otherwise. */
export function pickFormat<T extends string>(ctx: CommandContext, allowed: readonly T[], fallback: T): T {
  const f = ctx.global.format ?? fallback;
  if (!(allowed as readonly string[]).includes(f)) {
    throw new PinwatchError('invalid-format', `--format must be one of ${allowed.join(', ')} for this command; saw "${f}"`);
  }
  return f as T;
}

/** The `--first-party` values, each a repository prefix with its registry host. */
export function firstPartyFlag(values: readonly string[]): string[] {
  try {
    checkFirstPartyPrefixes(values);
  } catch (e) {
    if (isPinwatchError(e) && e.code === 'invalid-first-party-prefix') throw new PinwatchError(e.code, `--first-party: ${e.message}`, {}, { cause: e });
    throw e;
  }
  return [...values];
}
