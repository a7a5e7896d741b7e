/**
 * Read a git commit out of a BuildKit provenance attestation: an index entry
 * annotated `vnd.docker.reference.type: attestation-manifest` whose layers are
 * in-toto statements. SLSA v1: `buildDefinition.resolvedDependencies[].digest.gitCommit`,
 * BuildKit metadata `vcs.revision` (v0.2 `metadata`, v1 `runDetails.metadata.buildkit_metadata`),
 * and the `vcs:revision` build arg.
 */

export interface AttestationCommit {
  commit: string;
  source?: string;
  /** Where in the statement the commit was found. */
  from: string;
}

const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

export function commitFromStatement(statement: unknown): AttestationCommit | undefined {
  const s = statement as { predicate?: Record<string, any> };
  const p = s?.predicate;
  if (!p || typeof p !== 'object') return undefined;
  const deps: any[] = p.buildDefinition?.resolvedDependencies ?? [];
  for (const d of Array.isArray(deps) ? deps : []) {
    const c = d?.digest?.gitCommit ?? d?.digest?.sha1;
    if (typeof c === 'string' && COMMIT.test(c)) return { commit: c, source: stripGit(d.uri), from: 'buildDefinition.resolvedDependencies[].digest.gitCommit' };
  }
  const vcsV1 = p.runDetails?.metadata?.buildkit_metadata?.vcs;
  if (typeof vcsV1?.revision === 'string' && COMMIT.test(vcsV1.revision)) return { commit: vcsV1.revision, source: vcsV1.source, from: 'runDetails.metadata.buildkit_metadata.vcs.revision' };
  const vcsV02 = p.metadata?.['https://mobyproject.org/buildkit@v1#metadata']?.vcs;
  if (typeof vcsV02?.revision === 'string' && COMMIT.test(vcsV02.revision)) return { commit: vcsV02.revision, source: vcsV02.source, from: 'metadata.buildkit vcs.revision' };
  const args = p.buildDefinition?.externalParameters?.request?.args ?? p.invocation?.parameters?.args;
  const arg = args?.['vcs:revision'];
  if (typeof arg === 'string' && COMMIT.test(arg)) return { commit: arg, source: args['vcs:source'], from: 'build arg vcs:revision' };
  const materials: any[] = p.materials ?? [];
  for (const m of Array.isArray(materials) ? materials : []) {
    const c = m?.digest?.sha1;
    if (typeof c === 'string' && COMMIT.test(c) && typeof m.uri === 'string' && m.uri.includes('git')) return { commit: c, source: stripGit(m.uri), from: 'materials[].digest.sha1' };
  }
  return undefined;
}

function stripGit(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return undefined;
  return uri.replace(/^git\+/, '').replace(/@[0-9a-f]{40}$/, '').replace(/#.*$/, '');
}
