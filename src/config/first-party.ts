/**
 * First-party prefixes: `ghcr.io/acme/` names a registry host and optional path
 * components, the way normalised repositories (`domain/path`) are compared.
 */
import { PinwatchError } from '../errors.js';

const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const domain = `${domainComponent}(?:\\.${domainComponent})*(?::[0-9]+)?`;
const pathComponent = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const prefixRegexp = new RegExp(`^(${domain})(?:/${pathComponent})*/?$`);

const EXPECTED = 'expected a repository prefix with its registry host, like ghcr.io/acme/ or docker.io/acme/';

/** Why `prefix` is not a usable first-party prefix, or undefined when it is. */
export function firstPartyPrefixProblem(prefix: string): string | undefined {
  const quoted = JSON.stringify(prefix);
  if (/^[a-z]+:\/\//i.test(prefix)) return `${quoted} has a URL scheme; ${EXPECTED}`;
  const m = prefixRegexp.exec(prefix);
  if (!m) return `${quoted} is not a repository prefix; ${EXPECTED}`;
  const host = m[1]!;
  if (!host.includes('.') && !host.includes(':') && host !== 'localhost') {
    return `${quoted} does not start with a registry host (a Docker Hub name is docker.io/${prefix}); ${EXPECTED}`;
  }
  return undefined;
}

/** Prefixes given as values (not read from pinwatch.yaml): the first bad one throws `invalid-first-party-prefix`. */
export function checkFirstPartyPrefixes(prefixes: readonly string[]): void {
  for (const p of prefixes) {
    const problem = firstPartyPrefixProblem(p);
    if (problem) throw new PinwatchError('invalid-first-party-prefix', problem);
  }
}
