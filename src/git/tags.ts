/** Every git tag and the commit it names, in one `git for-each-ref` process. */
import { git } from './run.js';
import { checkSha, malformed } from './log-parse.js';

/** Ref names cannot hold NUL or newline (check-ref-format), so `%00` fields on newline-terminated lines are exact. */
export function parseTagRefs(out: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const line of out.split('\n')) {
    if (!line) continue;
    const [name = '', object = '', peeled = '', ...extra] = line.split('\0');
    if (extra.length > 0 || name === '') throw malformed('tag line', line);
    tags.set(name, checkSha(peeled || object, 'tag object'));
  }
  return tags;
}

/** Tag name → commit sha (annotated tags peeled). */
export async function readTags(repo: string): Promise<Map<string, string>> {
  return parseTagRefs(await git(repo, ['for-each-ref', '--format=%(refname:short)%00%(objectname)%00%(*objectname)', 'refs/tags']));
}
