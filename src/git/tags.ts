/** Every git tag and the commit it names, in one `git for-each-ref` process. */
import { git } from './run.js';
import { US } from './log-parse.js';

/** Tag name → commit sha (annotated tags peeled). */
export async function readTags(repo: string): Promise<Map<string, string>> {
  const out = await git(repo, ['for-each-ref', `--format=%(refname:short)${US}%(objectname)${US}%(*objectname)`, 'refs/tags']);
  const tags = new Map<string, string>();
  for (const line of out.split('\n')) {
    if (!line) continue;
    const [name = '', object = '', peeled = ''] = line.split(US);
    tags.set(name, peeled || object);
  }
  return tags;
}
