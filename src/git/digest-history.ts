/**
 * Digest archaeology's types and the patch reader the tag pass uses
 * (`patchLog`: `git log -p` parsed with nonce framing). The introductions
 * themselves come from the raw history pass (digest-window.ts); the unbounded
 * `readDigestIntroductions` reads the whole history for library callers.
 */
import { git, type GitOptions } from './run.js';
import { DigestArchaeology, type DigestHistoryResult, type HistoryView } from './digest-window.js';
import { BlobBatch, BlobDigests, graphOf, HistoryStream, topoPositions, type HistoryCommit } from './history.js';
import { digestsInLine } from '../reference/digest-text.js';
import { COMMIT_FORMAT, malformed, newNonce, nonceRecords, readCommitHeader, unquoteCPath } from './log-parse.js';

export type { CommitFacts, DigestHistoryResult, DigestIntroduction, LaterAddition } from './digest-window.js';

/** Works as a basic or extended regex, whichever git compiles it as. */
const PICKAXE = 'sha[0-9]*:[0-9a-f]';
/** File names are paths, not pathspec patterns (a `*` in a name is a `*`). */
export const LITERAL_PATHSPECS = { env: { GIT_LITERAL_PATHSPECS: '1' } };

export interface PatchOccurrence {
  commit: string;
  parentShas: string[];
  date: string;
  subject: string;
  added: Map<string, string>; // digest → file
  removed: Map<string, string[]>; // digest → files
  /** Every file each token was added to (the tag pass needs all of them). */
  addedTo: Map<string, string[]>;
}

/**
 * Parse `git log -p --unified=0 --format=<nonce>COMMIT_FORMAT` output. Records
 * start with the run's nonce, so no file byte can start, end or forge one; the
 * header's fields are NUL-terminated and checked; hunk bodies are consumed by
 * the line counts of their `@@` header, so a content line is never read as a
 * diff header (a fake `diff --git`, `+++ b/…` or `commit <sha>` is content).
 */
export function parsePatchLog(stdout: string, nonce: string, tokensIn: (line: string) => string[] = digestsInLine): PatchOccurrence[] {
  return nonceRecords(stdout, nonce).map((r) => parsePatchRecord(r, tokensIn));
}

/** One record of parsePatchLog (the text after its nonce). */
function parsePatchRecord(r: string, tokensIn: (line: string) => string[]): PatchOccurrence {
  const { header, rest } = readCommitHeader(r);
  const occ: PatchOccurrence = { commit: header.sha, parentShas: header.parentShas, date: header.date, subject: header.subject, added: new Map(), removed: new Map(), addedTo: new Map() };
  let file = '';
  let oldFile = '';
  let removing = 0;
  let adding = 0;
  for (const line of rest.split('\n')) {
    if (removing > 0 || adding > 0) {
      const sign = line[0];
      if (sign === '\\') continue; // "\ No newline at end of file"
      if (sign === '-' && removing > 0) removing--;
      else if (sign === '+' && adding > 0) adding--;
      else if ((sign === ' ' || sign === undefined) && removing > 0 && adding > 0) {
        // a context line (none with -U0, but diff.interHunkContext can add some; diff.suppressBlankEmpty prints an empty one bare)
        removing--;
        adding--;
        continue;
      } else throw malformed('hunk line', line);
      for (const d of tokensIn(line.slice(1))) {
        if (sign === '+') {
          if (!occ.added.has(d)) occ.added.set(d, file);
          const files = occ.addedTo.get(d) ?? [];
          if (!files.includes(file)) files.push(file);
          occ.addedTo.set(d, files);
        } else {
          const list = occ.removed.get(d) ?? [];
          if (!list.includes(oldFile)) list.push(oldFile);
          occ.removed.set(d, list);
        }
      }
      continue;
    }
    if (line.startsWith('diff --git ')) {
      file = '';
      oldFile = '';
    } else if (line.startsWith('--- ')) oldFile = patchPath(line.slice(4));
    else if (line.startsWith('+++ ')) file = patchPath(line.slice(4));
    else if (line.startsWith('@@ ')) {
      const h = HUNK.exec(line);
      if (!h) throw malformed('hunk header', line);
      removing = h[1] === undefined ? 1 : Number(h[1]);
      adding = h[2] === undefined ? 1 : Number(h[2]);
    }
  }
  if (removing > 0 || adding > 0) throw malformed('hunk cut short', r.slice(0, 80));
  return occ;
}

/** `@@ -l[,s] +l[,s] @@`: the counts (1 when omitted). */
const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * A `---`/`+++` path: `/dev/null` or `a/…`/`b/…`, C-quoted when it holds a byte that
 * needs it, and followed by a tab when it holds a space (quoted or not; a bare name
 * cannot end in a tab, which would have been quoted).
 */
function patchPath(p: string): string {
  const raw = p.endsWith('\t') ? p.slice(0, -1) : p;
  const path = unquoteCPath(raw);
  if (path === '/dev/null') return path;
  return path.replace(/^[ab]\//, '');
}

/**
 * `--relative`: paths relative to the repository root pinwatch was given, even when it is a subdirectory of the work tree.
 * Prefixes, colour, external diff, textconv and signatures are pinned so no user config changes the output's shape.
 */
const patchArgs = (nonce: string, pickaxe: string | undefined) => [
  '-p', '--relative', '--unified=0', '--inter-hunk-context=0', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', '--no-show-signature',
  '--src-prefix=a/', '--dst-prefix=b/', ...(pickaxe ? [`-G${pickaxe}`] : []), `--format=${nonce}${COMMIT_FORMAT}`,
];

/**
 * One `git log` patch pass (revisions and pathspecs in `args`), parsed. By default it
 * looks for digests; `find` gives another pickaxe (an extended regex, as git compiles
 * `-G`; undefined reads every patch) and the tokens to take from each changed line.
 */
export async function patchLog(
  repo: string,
  args: string[],
  options: Parameters<typeof git>[2] = {},
  find: { pickaxe: string | undefined; tokensIn: (line: string) => string[] } = { pickaxe: PICKAXE, tokensIn: digestsInLine },
): Promise<PatchOccurrence[]> {
  const nonce = newNonce();
  return parsePatchLog(await git(repo, ['log', ...patchArgs(nonce, find.pickaxe), ...args], options), nonce, find.tokensIn);
}

/**
 * patchLog read as git writes it (a HistoryStream of its records), until
 * `enough` says the occurrences so far answer the caller: then git is stopped,
 * and the older history it would have diffed is never read (the tag pass wants a
 * few newest commits per image; a 2 MB rendered bundle's every version diffed is
 * seconds). The occurrences are patchLog's, in its order, up to that point.
 */
export async function streamPatchLog(
  repo: string,
  /** More `git log` options (`--topo-order`), the revisions to walk from and the paths to limit it to. */
  walk: { options: string[]; revs: string[]; paths: string[] },
  options: Pick<GitOptions, 'env'>,
  find: { pickaxe: string | undefined; tokensIn: (line: string) => string[] },
  enough: (occurrences: readonly PatchOccurrence[]) => boolean | Promise<boolean>,
): Promise<PatchOccurrence[]> {
  const nonce = newNonce();
  const parse = (r: string) => {
    const occ = parsePatchRecord(r, find.tokensIn);
    return { sha: occ.commit, parentShas: occ.parentShas, occ };
  };
  const stream = HistoryStream.records(repo, nonce, ['log', ...patchArgs(nonce, find.pickaxe), ...walk.options], walk.revs, walk.paths, parse, 'git log -p', options.env);
  const out: PatchOccurrence[] = [];
  try {
    for (;;) {
      await stream.grow(out.length + 1);
      const next = stream.commits[out.length];
      if (!next) return out;
      out.push(next.occ);
      if (await enough(out)) return out;
    }
  } finally {
    // answered, or `enough` or a record failed: git diffs no further either way (a no-op once it has ended)
    stream.stop();
  }
}

/**
 * Find where each digest first entered `paths` (and, following moves, any file)
 * in the whole history of `head`: the raw pass and the pin files' blobs
 * (git/history.ts, git/digest-window.ts). stale reads a bounded window instead
 * (stale/window.ts); this is the unbounded form for library callers.
 */
export async function readDigestIntroductions(repo: string, digests: Iterable<string>, paths: string[], head = 'HEAD'): Promise<DigestHistoryResult> {
  const wanted = new Set(digests);
  if (wanted.size === 0 || paths.length === 0) return { found: new Map(), rounds: 0, truncated: [] };
  const commits = await HistoryStream.start(repo, [head]).all();
  const batch = new BlobBatch(repo);
  try {
    return (await analyzeLoaded(viewOf(commits, true), new DigestArchaeology(new BlobDigests(batch)), wanted, paths)).result;
  } finally {
    batch.close();
  }
}

/** A view of loaded commits (graph and topo positions computed once). */
export function viewOf(commits: readonly HistoryCommit[], ended: boolean, graph = graphOf(commits)): HistoryView {
  return { commits, graph, topo: topoPositions(graph), ended };
}

/** `DigestArchaeology.analyze`, reading the blobs it asks for until it has them all. */
export async function analyzeLoaded(view: HistoryView, arch: DigestArchaeology, wanted: Set<string>, paths: string[], common?: Uint8Array, holders?: ReadonlyMap<string, readonly string[]>, pinLike?: (path: string) => boolean): Promise<{ result: DigestHistoryResult; complete: boolean }> {
  for (;;) {
    const r = arch.analyze(view, wanted, paths, common, holders, pinLike);
    if (!r.pending) return r;
    await arch.settled();
  }
}
