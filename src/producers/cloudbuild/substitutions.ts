/**
 * Cloud Build substitutions: `$NAME` and `${NAME}` in a build's strings are
 * replaced before any step runs — user substitutions (`_NAME`) from the file's
 * `substitutions:` defaults (or buildEnv), built-ins (PROJECT_ID, COMMIT_SHA,
 * TAG_NAME, …) from buildEnv — and `$$` is a literal `$`. What only the trigger
 * knows becomes an unknown marker with its reason; any other `$X` is left for
 * the step's shell.
 */
import { marker } from '../../make/index.js';

export const BUILTIN_SUBSTITUTIONS = ['PROJECT_ID', 'PROJECT_NUMBER', 'BUILD_ID', 'LOCATION', 'COMMIT_SHA', 'SHORT_SHA', 'REVISION_ID', 'TAG_NAME', 'BRANCH_NAME', 'REPO_NAME', 'REPO_FULL_NAME', 'TRIGGER_NAME', 'TRIGGER_BUILD_CONFIG_PATH', 'SERVICE_ACCOUNT_EMAIL', 'SERVICE_ACCOUNT', '_HEAD_BRANCH', '_BASE_BRANCH', '_HEAD_REPO_URL', '_PR_NUMBER'];

export interface Unknown {
  name: string;
  reason: string;
  marker: string;
}

export interface Substituter {
  apply(text: string): string;
  unknowns: Unknown[];
}

/** A substituter over the file's `substitutions:` defaults and `env` (buildEnv, which wins). */
export function substituter(defaults: ReadonlyMap<string, string>, env: ReadonlyMap<string, string>): Substituter {
  const unknowns: Unknown[] = [];
  const value = (name: string): string | undefined => {
    const known = env.get(name) ?? defaults.get(name);
    if (known !== undefined) return known;
    const builtin = BUILTIN_SUBSTITUTIONS.includes(name);
    if (!builtin && !name.startsWith('_')) return undefined;
    const m = marker('subst', name);
    if (!unknowns.some((u) => u.name === name)) {
      unknowns.push({ name, marker: m, reason: builtin ? `$${name} is set by Cloud Build when the build runs (set buildEnv.${name} in pinwatch.yaml if it is fixed)` : `$${name} has no default under substitutions: (the trigger sets it)` });
    }
    return m;
  };
  return {
    unknowns,
    apply: (text) =>
      text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (all, braced: string | undefined, plain: string | undefined) => {
        if (all === '$$') return '$';
        const v = value((braced ?? plain)!);
        return v ?? all;
      }),
  };
}
