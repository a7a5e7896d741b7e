/**
 * The repository's remote URL, read from the git config file itself (no git
 * process): the git dir of a checkout or a worktree (`.git` file → `gitdir:` →
 * `commondir`), then `remote.origin.url` (or the first remote's url).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

/** The url of remote `name` (default origin, else the first remote with a url) in git config text. */
export function remoteUrlFromConfig(text: string, name = 'origin'): string | undefined {
  const urls = remoteUrls(text);
  return urls.get(name) ?? urls.values().next().value;
}

/** Each remote's first url in git config text, by remote name, in the file's order. */
export function remoteUrls(text: string): Map<string, string> {
  const urls = new Map<string, string>();
  let section: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[\s*remote\s+"((?:[^"\\]|\\.)*)"\s*\]/i.exec(line);
    if (head) {
      section = head[1]!.replace(/\\(.)/g, '$1');
      continue;
    }
    if (line.startsWith('[')) {
      section = undefined;
      continue;
    }
    const kv = /^url\s*=\s*(.*)$/i.exec(line);
    if (section !== undefined && kv && !urls.has(section)) urls.set(section, unquote(kv[1]!));
  }
  return urls;
}

function unquote(value: string): string {
  const v = value.replace(/\s+[#;].*$/, '').trim();
  return v.startsWith('"') && v.endsWith('"') && v.length >= 2 ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v;
}

/** The common git dir of the checkout at `root` (where `config` lives), or undefined when it has none. */
export function commonGitDir(root: string): string | undefined {
  const dotGit = join(root, '.git');
  if (!existsSync(dotGit)) return existsSync(join(root, 'config')) && existsSync(join(root, 'HEAD')) ? root : undefined; // a bare repository
  let gitDir = dotGit;
  if (statSync(dotGit).isFile()) {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    if (!m) return undefined;
    gitDir = isAbsolute(m[1]!) ? m[1]! : resolve(root, m[1]!);
  }
  const common = join(gitDir, 'commondir');
  if (existsSync(common)) {
    const c = readFileSync(common, 'utf8').trim();
    gitDir = isAbsolute(c) ? c : resolve(gitDir, c);
  }
  return gitDir;
}

/** The remote URL of the repository at `root` as written in its git config, or undefined (no git dir, no remote). */
export function readRemoteUrl(root: string, name = 'origin'): string | undefined {
  const dir = commonGitDir(root);
  const file = dir ? join(dir, 'config') : undefined;
  if (!file || !existsSync(file)) return undefined;
  return remoteUrlFromConfig(readFileSync(file, 'utf8'), name);
}
