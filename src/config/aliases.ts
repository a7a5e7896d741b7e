/**
 * `aliases`: other repository prefixes under which the same images (same
 * digests) are published — a CI build registry, a staging registry promoted to
 * the release one, a registry move. The one home of "which first-party
 * repository is this": `canonicalRepository` maps a repository under an alias
 * prefix to the canonical one. `running` maps the repository a cluster pulled
 * to its image, recipe matching takes a recipe that tags the staging name as
 * building the released image, and a pin under an old prefix is the same image.
 */
import type { Config } from './types.js';
import { firstPartyPrefixProblem } from './first-party.js';
import { isFirstParty } from '../model/pin.js';

/** `a/` and `a` are the same prefix: whole path components. */
const withSlash = (p: string) => (p.endsWith('/') ? p : `${p}/`);

/**
 * The canonical repository of `repository` under `aliases` (longest matching
 * alias prefix wins); `repository` itself when no alias prefix covers it.
 */
export function canonicalRepository(repository: string, aliases: Readonly<Record<string, string>>): string {
  // asked for every recipe repository of every image (images/): answered once per alias map and repository
  let known = canonicalOf.get(aliases);
  if (!known) canonicalOf.set(aliases, (known = new Map()));
  let answer = known.get(repository);
  if (answer === undefined) known.set(repository, (answer = canonicalUncached(repository, aliases)));
  return answer;
}

/** Answers of canonicalRepository by alias map (a config's map is not changed once loaded). */
const canonicalOf = new WeakMap<Readonly<Record<string, string>>, Map<string, string>>();

function canonicalUncached(repository: string, aliases: Readonly<Record<string, string>>): string {
  let best: [string, string] | undefined;
  for (const [from, to] of Object.entries(aliases)) {
    const f = withSlash(from);
    if (repository !== f.slice(0, -1) && !repository.startsWith(f)) continue;
    if (!best || f.length > best[0].length) best = [f, withSlash(to)];
  }
  if (!best) return repository;
  const [f, t] = best;
  return repository === f.slice(0, -1) ? t.slice(0, -1) : t + repository.slice(f.length);
}

/** The alias prefix (as configured) that covers `repository`, if any: for "published under" notes. */
export function aliasOf(repository: string, aliases: Readonly<Record<string, string>>): string | undefined {
  return Object.keys(aliases)
    .filter((from) => repository === withSlash(from).slice(0, -1) || repository.startsWith(withSlash(from)))
    .sort((a, b) => b.length - a.length)[0];
}

/**
 * The prefixes a pin is first-party under: `firstParty`, every alias prefix
 * whose canonical prefix is first-party (a CI-registry pin is our image too),
 * and, for a first-party prefix inside an alias's canonical prefix, the same
 * path under the alias (`firstParty: [docker.io/aquasec/trivy-operator]` with
 * `mirror.gcr.io/aquasec/` → `docker.io/aquasec/`: `mirror.gcr.io/aquasec/trivy-operator`).
 */
export function firstPartyPrefixes(config: Pick<Config, 'firstParty' | 'aliases'>): string[] {
  const aliases = Object.entries(config.aliases ?? {}).flatMap(([from, to]) => {
    const t = withSlash(to);
    if (isFirstParty(t.slice(0, -1), config.firstParty) || config.firstParty.some((p) => t.startsWith(withSlash(p)))) return [from];
    return config.firstParty.filter((p) => withSlash(p).startsWith(t) && withSlash(p) !== t).map((p) => withSlash(from) + p.slice(t.length));
  });
  return [...new Set([...config.firstParty, ...aliases])];
}

/** Why an alias map is not usable (a prefix that is not one, a self-map, a chain), or undefined. */
export function aliasesProblem(aliases: Readonly<Record<string, string>>): string | undefined {
  for (const [from, to] of Object.entries(aliases)) {
    const bad = firstPartyPrefixProblem(from) ?? firstPartyPrefixProblem(to);
    if (bad) return `aliases: ${bad}`;
    if (withSlash(from) === withSlash(to)) return `aliases: ${JSON.stringify(from)} maps to itself; expected another prefix, like "ghcr.io/acme/"`;
    if (canonicalRepository(withSlash(to).slice(0, -1), aliases) !== withSlash(to).slice(0, -1)) {
      return `aliases: ${JSON.stringify(from)} maps to ${JSON.stringify(to)}, which is itself an alias; map ${JSON.stringify(from)} to the canonical prefix directly`;
    }
  }
  return undefined;
}
