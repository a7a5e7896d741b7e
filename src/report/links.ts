/**
 * Links of the HTML report: the repository's web URL from its git remote (GitHub,
 * GitLab; https, ssh and scp-like forms; credentials dropped), and the commit, PR and
 * file URL templates (`links.*` in pinwatch.yaml override the forge's defaults).
 * Pure. A link that cannot be made is absent (the report then prints plain text),
 * never a guess: a local or unknown remote gives no commit/PR/file links unless
 * templates are configured, and only http(s) URLs come out.
 */

export type Forge = 'github' | 'gitlab' | 'other';

/** `links` in pinwatch.yaml: `{repo}`, `{commit}`, `{short}`, `{pr}`, `{path}`, `{line}` placeholders. */
export interface LinkTemplates {
  /** The repository's web URL (replaces the one derived from the remote). */
  repository?: string;
  /** e.g. `{repo}/commit/{commit}` */
  commit?: string;
  /** e.g. `{repo}/pull/{pr}` */
  pr?: string;
  /** e.g. `{repo}/blob/{commit}/{path}#L{line}` */
  file?: string;
}

/** What the report links with: the web URL and the templates in force (each absent when unknown). */
export interface RepoLinks {
  repository?: string;
  forge?: Forge;
  commit?: string;
  pr?: string;
  file?: string;
}

const DEFAULTS: Record<Exclude<Forge, 'other'>, Required<Omit<LinkTemplates, 'repository'>>> = {
  github: { commit: '{repo}/commit/{commit}', pr: '{repo}/pull/{pr}', file: '{repo}/blob/{commit}/{path}#L{line}' },
  gitlab: { commit: '{repo}/-/commit/{commit}', pr: '{repo}/-/merge_requests/{pr}', file: '{repo}/-/blob/{commit}/{path}#L{line}' },
};

/** The forge a host serves: github.com (and GitHub Enterprise hosts named github.*), hosts named gitlab.*, else other. */
export function forgeOfHost(host: string): Forge {
  const h = host.toLowerCase();
  if (h === 'github.com' || h === 'www.github.com' || /(^|\.)github\./.test(h)) return 'github';
  if (h === 'gitlab.com' || /(^|\.)gitlab\./.test(h)) return 'gitlab';
  return 'other';
}

/**
 * The https web URL of a git remote: `git@github.com:o/r.git`, `ssh://git@host:22/o/r`,
 * `https://user:token@host/o/r.git`, `git://host/o/r` → `https://host/o/r`. Undefined for
 * a local path, a `file://` URL or anything without a host and a path.
 */
export function webUrlOfRemote(remote: string): { url: string; host: string } | undefined {
  const r = remote.trim();
  let host: string;
  let path: string;
  const scp = /^(?:[^@/\s]+@)?([A-Za-z0-9.-]+):(?!\/\/)([^\s]+)$/.exec(r);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(r)) {
    let u: URL;
    try {
      u = new URL(r);
    } catch {
      return undefined;
    }
    if (!['https:', 'http:', 'ssh:', 'git:', 'git+ssh:', 'ssh+git:'].includes(u.protocol) || !u.hostname) return undefined;
    host = u.hostname;
    path = decodeURIComponent(u.pathname);
  } else if (scp && !/^[A-Za-z]$/.test(scp[1]!)) {
    host = scp[1]!;
    path = scp[2]!;
  } else return undefined;
  const clean = path.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  if (!/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(clean) || !/^[A-Za-z0-9.-]+$/.test(host)) return undefined;
  if (forgeOfHost(host) !== 'other' && !clean.includes('/')) return undefined; // GitHub and GitLab URLs are owner/name at least
  return { url: `https://${host.toLowerCase()}/${clean}`, host: host.toLowerCase() };
}

/** The links in force: configured templates over the forge defaults of the remote's host. */
export function resolveLinks(remote: string | undefined, config: LinkTemplates = {}): RepoLinks {
  const web = config.repository ? { url: config.repository.replace(/\/+$/, ''), host: hostOf(config.repository) } : remote ? webUrlOfRemote(remote) : undefined;
  const forge = web ? forgeOfHost(web.host) : undefined;
  const defaults = forge && forge !== 'other' ? DEFAULTS[forge] : undefined;
  const out: RepoLinks = {};
  if (web && (forge !== 'other' || config.repository)) out.repository = web.url;
  if (forge) out.forge = forge;
  for (const k of ['commit', 'pr', 'file'] as const) {
    const t = config[k] ?? defaults?.[k];
    if (t && (out.repository || !t.includes('{repo}'))) out[k] = t;
  }
  return out;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

const encodePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');

/**
 * Fill a template; undefined when a placeholder it uses has no value or the result is
 * not an http(s) URL. A missing `{line}` drops the URL fragment that holds it.
 */
export function expandLink(template: string | undefined, links: RepoLinks, vars: { commit?: string; pr?: number; path?: string; line?: number }): string | undefined {
  if (!template) return undefined;
  let t = template;
  if (vars.line === undefined && t.includes('{line}')) {
    const hash = t.lastIndexOf('#', t.indexOf('{line}'));
    if (hash < 0) return undefined;
    t = t.slice(0, hash);
  }
  const values: Record<string, string | undefined> = {
    repo: links.repository,
    commit: vars.commit && /^[0-9a-f]{4,64}$/i.test(vars.commit) ? vars.commit : undefined,
    short: vars.commit && /^[0-9a-f]{4,64}$/i.test(vars.commit) ? vars.commit.slice(0, 10) : undefined,
    pr: vars.pr !== undefined && Number.isSafeInteger(vars.pr) && vars.pr > 0 ? String(vars.pr) : undefined,
    path: vars.path ? encodePath(vars.path) : undefined,
    line: vars.line !== undefined ? String(vars.line) : undefined,
  };
  let missing = false;
  const url = t.replace(/\{(repo|commit|short|pr|path|line)\}/g, (_, k: string) => {
    const v = values[k];
    if (v === undefined) missing = true;
    return v ?? '';
  });
  return !missing && /^https?:\/\/[^\s"'<>]+$/.test(url) ? url : undefined;
}
