/**
 * `.dockerignore` → repo-relative ignore entries. Each pattern is anchored at the
 * build context (Docker matches from the context root: `*.md` is only top-level,
 * `**\/*.md` is everywhere), `!` re-includes keep their order, and the matcher
 * applies the last entry that matches a path or one of its parent directories —
 * the same rule BuildKit uses.
 */

export interface DockerignoreEntries {
  /** Ordered entries, `!`-prefixed for re-includes. */
  entries: string[];
  problems: { line: number; reason: string }[];
}

/** Lexically clean a slash path the way Go's path.Clean does (no leading `/`). */
function cleanPattern(p: string): string {
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
      continue;
    }
    parts.push(seg);
  }
  return parts.join('/');
}

/** `context` is repo-relative (`.` for the repo root). */
export function dockerignoreEntries(text: string, context: string): DockerignoreEntries {
  const prefix = context === '.' || context === '' ? '' : `${context.replace(/\/$/, '')}/`;
  const entries: string[] = [];
  const problems: DockerignoreEntries['problems'] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.startsWith('#')) return;
    let line = raw.trim();
    if (line === '') return;
    const negate = line.startsWith('!');
    if (negate) line = line.slice(1).trim();
    const pattern = cleanPattern(line);
    if (pattern === '') {
      if (negate) problems.push({ line: i + 1, reason: `"${raw}" re-includes the whole context; ignored` });
      else entries.push(`${prefix}**`);
      return;
    }
    entries.push(`${negate ? '!' : ''}${prefix}${pattern}`);
  });
  return { entries, problems };
}
