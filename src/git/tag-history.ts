/**
 * Tag archaeology: the commits whose patch adds a line holding one of the given
 * image tags (as a whole token: `v1.2.3` is not found in `v1.2.30`), newest first
 * in topological order, with the files each tag was added to. One `git log -p -G`
 * pass over the pin files' history, whatever the number of tags, stopped once the
 * caller has the commits it wants.
 */
import { LITERAL_PATHSPECS, patchLog, streamPatchLog, type PatchOccurrence } from './digest-history.js';

/** A tag's characters (the reference grammar's `[\w][\w.-]*`); a token ends where they do. */
const TAG_CHAR = /[A-Za-z0-9_.-]/;
/** Above this, the pickaxe is dropped and every patch of the paths is read (argv stays small). */
const MAX_PICKAXE_CHARS = 32_768;

const escapeEre = (s: string) => s.replace(/[.[\]\\()*+?{}|^$]/g, (c) => `\\${c}`);

/** The wanted tags a line holds as whole tokens. */
export function tagsInLine(line: string, wanted: ReadonlySet<string>, longest: number): string[] {
  const found: string[] = [];
  for (let i = 0; i < line.length; i++) {
    if (!TAG_CHAR.test(line[i]!) || (i > 0 && TAG_CHAR.test(line[i - 1]!))) continue;
    let j = i;
    while (j < line.length && j - i <= longest && TAG_CHAR.test(line[j]!)) j++;
    const token = line.slice(i, j);
    if (wanted.has(token) && !found.includes(token)) found.push(token);
    i = j - 1;
  }
  return found;
}

/**
 * Commits adding the tags to `paths` in the history of `head`, newest first (`addedTo`: tag → files).
 * `not`: commits whose history is left out (`^rev`). `enough`, given the commits found so far (each adding a wanted tag), says when no older one is wanted
 * (it may ask git meanwhile: git diffs on while it does): git stops there (streamPatchLog), and what it
 * returns is the same list cut there.
 */
export async function readTagAdditions(repo: string, tags: Iterable<string>, paths: string[], head = 'HEAD', enough?: (found: readonly PatchOccurrence[]) => boolean | Promise<boolean>, not: readonly string[] = []): Promise<PatchOccurrence[]> {
  const wanted = new Set([...tags].filter((t) => t !== ''));
  if (wanted.size === 0 || paths.length === 0) return [];
  let longest = 0;
  for (const t of wanted) if (t.length > longest) longest = t.length;
  const alternation = [...wanted].sort().map(escapeEre).join('|');
  const pickaxe = alternation.length <= MAX_PICKAXE_CHARS ? alternation : undefined;
  const find = { pickaxe, tokensIn: (line: string) => tagsInLine(line, wanted, longest) };
  if (!enough) return (await patchLog(repo, ['--topo-order', head, ...not.map((r) => `^${r}`), '--', ...paths], LITERAL_PATHSPECS, find)).filter((o) => o.addedTo.size > 0);
  const found: PatchOccurrence[] = [];
  await streamPatchLog(repo, { options: ['--topo-order'], revs: [head, ...not.map((r) => `^${r}`)], paths }, LITERAL_PATHSPECS, find, (occs) => {
    const occ = occs[occs.length - 1]!;
    if (occ.addedTo.size === 0) return false;
    found.push(occ);
    return enough(found);
  });
  return found;
}
