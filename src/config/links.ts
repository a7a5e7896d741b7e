/**
 * Checks of `links` in pinwatch.yaml (the HTML report's commit, PR and file URL
 * templates; src/report/links.ts fills them).
 */

/** Why a configured `links.*` template is unusable, or undefined (used by the config validator). */
export function linkTemplateProblem(key: 'repository' | 'commit' | 'pr' | 'file', value: string): string | undefined {
  if (key === 'repository') return /^https?:\/\/[^\s"'<>]+$/.test(value) ? undefined : `${JSON.stringify(value)} is not an http(s) URL; expected one like https://github.com/acme/platform`;
  const need = { commit: '{commit}', pr: '{pr}', file: '{path}' }[key];
  const example = { commit: '{repo}/commit/{commit}', pr: '{repo}/pull/{pr}', file: '{repo}/blob/{commit}/{path}#L{line}' }[key];
  if (!/^(https?:\/\/|\{repo\})/.test(value)) return `${JSON.stringify(value)} does not start with http://, https:// or {repo}; expected one like ${example}`;
  if (!value.includes(need) && !(key === 'commit' && value.includes('{short}'))) return `${JSON.stringify(value)} has no ${need}; expected one like ${example}`;
  const unknown = /\{(?!(?:repo|commit|short|pr|path|line)\})[^}]*\}/.exec(value);
  return unknown ? `${JSON.stringify(value)} has an unknown placeholder ${unknown[0]}; known: {repo} {commit} {short} {pr} {path} {line}` : undefined;
}
