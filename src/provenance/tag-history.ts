/**
 * Tag-history provenance: digest history generalised to tags, for pins without a
 * digest. When a build recipe (or a declared producer) stamps an image's pin, the commit that
 * introduced the pinned tag into that pin is the stamp; the image was built from
 * its first parent (or itself with `provenance.buildCommit: self`, or when that
 * commit also changes the image's inputs; see digest-history.ts). Weaker than a
 * digest: a tag can be rebuilt, and the output says so.
 *
 * Git is read twice for all subjects: one `log -p -G` pass for the commits adding
 * the tags to the stamped pin files (git/tag-history.ts), and one `cat-file
 * --batch` of those files at each candidate and its first parent, asked as the
 * pass finds the candidate, to keep only the commit that put the tag into THIS
 * pin (another image in the same file may carry the same tag); the pass stops
 * once every subject has its commit.
 */
import type { collectFile as CollectFile } from '../collect/index.js';
import type { PatchOccurrence } from '../git/digest-history.js';
import { cacheFor } from '../cache/index.js';
import { historyRewriters } from '../git/history-join.js';
import { BlobBatch } from '../git/history.js';
import { runGit } from '../git/run.js';
import type { ShallowState } from '../git/shallow.js';
import { readTagAdditions, tagsInLine } from '../git/tag-history.js';
import type { Pin } from '../model/index.js';
import { fileKind } from '../scan/kind.js';
import { listSome } from '../util/list.js';
import type { ImageSubject, ProvenanceSource, ProvenanceStep } from './types.js';

const method = 'tag-history' as const;
const short = (sha: string) => sha.slice(0, 10);
/** Newest candidate commits checked per subject (each costs two blobs in the one batch). */
const MAX_CANDIDATES = 6;

export interface TagIntroduction {
  commit: string;
  parentShas: string[];
  date: string;
  subject: string;
  file: string;
  tag: string;
  stampedBy: string;
}

/** Per subject: its introduction, or why none was found. */
export type TagHistory = Map<ImageSubject, TagIntroduction | { none: string }>;

/**
 * Tags that name a channel, not a build: every push to it moves them (`latest`, a branch such as
 * cluster-api's `main`, which its staging job pushes on each merge). The commit that wrote one into
 * a pin (a file move, years ago) says nothing of which build the registry holds under it now.
 */
export const CHANNEL_TAGS: ReadonlySet<string> = new Set(['latest', 'main', 'master', 'trunk', 'head', 'dev', 'devel', 'develop', 'development', 'nightly', 'edge', 'canary', 'unstable', 'stable', 'next', 'snapshot']);

/** The stamped pins of a subject that carry a tag (`channels`: also those whose tag is a channel's). */
const stampedPins = (s: ImageSubject, channels = false): { pin: Pin; by: string }[] =>
  s.pins.flatMap((pin) => {
    const st = (s.stamped ?? []).find((x) => x.file === pin.file && x.line === pin.line);
    return st && pin.ref.tag !== undefined && (channels || !CHANNEL_TAGS.has(pin.ref.tag)) ? [{ pin, by: st.by }] : [];
  });

/** Whether the text of `file` has `pin`'s place (its key path, or any pin of the repository) holding `tag`. */
function holdsTag(collectFile: typeof CollectFile, text: string | undefined, file: string, pin: Pin, repository: string, tag: string): boolean {
  if (text === undefined) return false;
  try {
    const { pins } = collectFile(fileKind(file, false), text, { file, isFirstParty: () => true });
    return pins.some((p) => p.ref.tag === tag && (pin.keyPath ? p.keyPath === pin.keyPath && (p.document ?? 0) === (pin.document ?? 0) : p.ref.name === repository));
  } catch {
    return text.split('\n').some((line) => tagsInLine(line, new Set([tag]), tag.length).length > 0);
  }
}

/**
 * Read, for every subject whose pins a recipe stamps, the commit that introduced its tag:
 * the newest of its first MAX_CANDIDATES candidates (commits adding its tag to a stamped
 * pin's file, in `--topo-order`) whose blobs show the tag entering this pin. Each candidate
 * is checked as the pass finds it (its file at the commit and at its first parent, through
 * one `cat-file --batch` for the whole pass, while git diffs on), and git is stopped once
 * every subject is settled: its tag found entering its pin, or MAX_CANDIDATES candidates
 * checked. The answer is the one checking the first MAX_CANDIDATES of the whole pass gives.
 *
 * Each subject's answer is kept (cache namespace `tag-history`, by its stamped pins and
 * tag) with the commit it was read at. A later run whose HEAD descends from that commit
 * by a line of single-parent commits (a push, a squash or rebase merge) reads only those
 * commits: in `--topo-order` they come first and the kept commit's history after them as
 * it came before, so the first MAX_CANDIDATES candidates are the new ones and then the
 * kept ones. `shallow`: a shallow clone keeps nothing (deepening it lengthens the history
 * an answer was read from).
 */
export async function readTagHistory(repo: string, subjects: ImageSubject[], head: string, prefix = '', shallow?: ShallowState): Promise<TagHistory> {
  const wanted = subjects.filter((s) => !s.digest).map((s) => ({ s, stamped: stampedPins(s), tried: 0, found: undefined as Candidate | undefined, kept: undefined as KeptTagIntroduction | undefined }));
  const asked = wanted.filter((w) => w.stamped.length > 0);
  const cache = cacheFor(repo);
  const keep = cache.enabled && shallow?.shallow !== true && !historyRewriters(repo) && /^([0-9a-f]{40}|[0-9a-f]{64})$/.test(head);
  const keyOf = (w: (typeof wanted)[number]) => JSON.stringify([prefix, w.s.repository, w.stamped.map((x) => [x.pin.file, x.pin.keyPath ?? null, x.pin.document ?? 0, x.pin.ref.tag, x.by])]);
  if (keep) for (const w of asked) w.kept = wellKept(cache.getValue<KeptTagIntroduction>(TAG_HISTORY_NS, keyOf(w)));
  const from = asked.length > 0 && asked.every((w) => w.kept && w.kept.head === asked[0]!.kept!.head) ? asked[0]!.kept!.head : undefined;
  let since: string | undefined;
  if (from !== undefined && from !== head) {
    const line = await singleParentLine(repo, head, from);
    if (line === true) since = from;
    else cache.note(`tag history: not taken from ${from.slice(0, 10)}: ${line}`);
  }
  // kept at this very commit: the kept answers are the answer, and git is not asked
  if (from !== head) await passOver(repo, wanted, head, prefix, since);
  const out: TagHistory = new Map();
  for (const w of wanted) {
    if (w.stamped.length === 0) continue;
    // new commits read alone: the kept candidates follow the new ones, up to MAX_CANDIDATES in all
    const kept = from === head || since !== undefined ? w.kept : undefined;
    const answer = w.found ? { tried: w.tried, found: introductionOf(w.found) } : kept?.found && w.tried + kept.tried <= MAX_CANDIDATES ? { tried: w.tried + kept.tried, found: kept.found } : { tried: Math.min(MAX_CANDIDATES, w.tried + (kept?.tried ?? 0)) };
    if (answer.found) out.set(w.s, answer.found);
    else {
      const files = listSome([...new Set(w.stamped.map((x) => x.pin.file))]);
      const seen = answer.tried > 0 ? `${answer.tried} commit(s) add it to ${files}, none into this pin` : `it never appears in the history of ${files}`;
      out.set(w.s, { none: `tag ${listSome([...new Set(w.stamped.map((x) => x.pin.ref.tag!))])}: ${seen}` });
    }
    if (keep && from !== head) cache.putValue(TAG_HISTORY_NS, keyOf(w), { head, ...answer } satisfies KeptTagIntroduction);
  }
  if (from === head) cache.note(`tag history: ${asked.length} image(s)' tag introductions kept at ${head.slice(0, 10)}`);
  else if (since !== undefined) cache.note(`tag history: ${asked.length} image(s)' tag introductions kept at ${since.slice(0, 10)}; only the commits since read`);
  return out;
}

/** The cache namespace of tag introductions (readTagHistory). */
export const TAG_HISTORY_NS = 'tag-history';

/** One subject's answer as kept: the commit it was read at, the candidates it checked, the one that put the tag into its pin. */
interface KeptTagIntroduction {
  head: string;
  tried: number;
  found?: TagIntroduction;
}

function wellKept(k: KeptTagIntroduction | undefined): KeptTagIntroduction | undefined {
  return k && typeof k.head === 'string' && Number.isInteger(k.tried) && k.tried >= 0 && k.tried <= MAX_CANDIDATES && (k.found === undefined || (typeof k.found.commit === 'string' && Array.isArray(k.found.parentShas))) ? k : undefined;
}

const introductionOf = (c: Candidate): TagIntroduction => ({ commit: c.occ.commit, parentShas: c.occ.parentShas, date: c.occ.date, subject: c.occ.subject, file: c.pin.file, tag: c.tag, stampedBy: c.by });

/**
 * Whether the commits `head` reaches and `from` does not are one line of
 * single-parent commits ending on `from` (one `git rev-list --parents`): true, or
 * why not.
 */
async function singleParentLine(repo: string, head: string, from: string): Promise<true | string> {
  const r = await runGit(repo, ['rev-list', '--parents', head, '--not', from, '--']);
  if (r.code !== 0) return `git rev-list failed (${r.stderr.trim().split('\n')[0] ?? ''})`;
  const lines = r.stdout.split('\n').filter((l) => l !== '');
  if (lines.length === 0) return `${head.slice(0, 10)} does not descend from it`;
  let at = head;
  for (const [i, l] of lines.entries()) {
    const [sha, ...parents] = l.split(' ');
    if (sha !== at) return 'the new commits are not one line';
    if (parents.length !== 1) return `${sha!.slice(0, 10)} has ${parents.length} parents`;
    at = parents[0]!;
    if (i === lines.length - 1 && at !== from) return `${head.slice(0, 10)} does not descend from it by one line`;
  }
  return true;
}

/**
 * The pass itself: commits adding the subjects' tags, newest first (only those
 * `since` does not reach, when given), each candidate checked as it comes, until
 * every subject is settled.
 */
async function passOver(repo: string, wanted: { s: ImageSubject; stamped: { pin: Pin; by: string }[]; tried: number; found: Candidate | undefined }[], head: string, prefix: string, since: string | undefined): Promise<void> {
  const settled = (w: (typeof wanted)[number]) => w.stamped.length === 0 || w.found !== undefined || w.tried >= MAX_CANDIDATES;
  const open = wanted.filter((w) => !settled(w));
  if (open.length === 0) return;
  const files = [...new Set(open.flatMap((w) => w.stamped.map((x) => x.pin.file)))].sort();
  const tags = new Set(open.flatMap((w) => w.stamped.map((x) => x.pin.ref.tag!)));
  // the collectors (and the yaml package) loaded once a pass runs: a run whose tag answers are kept never loads them
  const { collectFile } = await import('../collect/index.js');
  const batch = new BlobBatch(repo);
  const blob = (commit: string | undefined, file: string) => (commit === undefined || file.includes('\n') ? Promise.resolve(undefined) : batch.read(`${commit}:${prefix}${file}`));
  try {
    await readTagAdditions(repo, tags, files, head, async (found) => {
      const occ = found[found.length - 1]!;
      for (const w of open) {
        if (settled(w)) continue;
        const hit = w.stamped.find((x) => (occ.addedTo.get(x.pin.ref.tag!) ?? []).includes(x.pin.file));
        if (!hit) continue;
        w.tried++;
        const c: Candidate = { occ, pin: hit.pin, by: hit.by, tag: hit.pin.ref.tag! };
        const [at, before] = await Promise.all([blob(occ.commit, c.pin.file), blob(occ.parentShas[0], c.pin.file)]);
        if (holdsTag(collectFile, at, c.pin.file, c.pin, w.s.repository, c.tag) && !holdsTag(collectFile, before, c.pin.file, c.pin, w.s.repository, c.tag)) w.found = c;
      }
      return open.every(settled);
    }, since === undefined ? [] : [since]);
    // a candidate whose blobs git did not give is no answer (nor one to keep): the failure is the run's
    if (batch.error) throw batch.error;
  } finally {
    batch.close();
  }
}

/** A commit adding a subject's tag to the file of one of its stamped pins. */
interface Candidate {
  occ: PatchOccurrence;
  pin: Pin;
  by: string;
  tag: string;
}

export interface TagHistorySourceInput {
  history: TagHistory;
  shallow: ShallowState;
  buildCommit: 'parent' | 'self';
}

export function tagHistorySource(input: TagHistorySourceInput): ProvenanceSource {
  return { method, resolve: async (image) => resolveFromTagHistory(image, input) };
}

const WEAKER = 'weaker than a digest: a tag can be rebuilt, so the image may hold a later build';

export function resolveFromTagHistory(image: ImageSubject, input: TagHistorySourceInput): ProvenanceStep {
  if (image.tags.length === 0) return { method, answered: false, reason: 'no pin of this image carries a tag' };
  if (image.digest) return { method, answered: false, reason: 'the pins store a digest, whose history digest-history reads (a tag can be rebuilt under the same name)' };
  const channels = stampedPins(image, true);
  if (channels.length > 0 && stampedPins(image).length === 0) {
    const tags = listSome([...new Set(channels.map((x) => x.pin.ref.tag!))]);
    return { method, answered: false, reason: `tag ${tags} names a channel, not a build (each push to it moves it), so the commit that wrote it into the pin is not where the image it names now was built` };
  }
  if (stampedPins(image).length === 0) {
    return { method, answered: false, reason: 'no build recipe or declared producer stamps a tagged pin of this image, so the commit that changed its tag need not be where it was built (declare the producer in pinwatch.yaml)' };
  }
  const intro = input.history.get(image);
  if (!intro) return { method, answered: false, reason: 'internal: the tag history was not read for this image' };
  if ('none' in intro) {
    const why = input.shallow.shallow ? ' (the clone is shallow: fetch full history, e.g. fetch-depth: 0)' : '';
    return { method, answered: false, reason: `${intro.none}${why}` };
  }
  const evidence = { introducedBy: { commit: intro.commit, subject: intro.subject, date: intro.date, file: intro.file }, tag: intro.tag, stampedBy: intro.stampedBy };
  const introText = `tag ${intro.tag} introduced by ${short(intro.commit)} "${intro.subject}" (${intro.date.slice(0, 10)}) in ${intro.file}, which ${intro.stampedBy} stamps`;
  if (input.shallow.boundary.has(intro.commit)) {
    return { method, answered: false, reason: `${introText}: the boundary of a shallow clone, so its real introduction may be older: fetch full history (git fetch --unshallow, or fetch-depth: 0)`, evidence };
  }
  if (input.buildCommit === 'self') return { method, answered: true, commit: intro.commit, reason: `${introText}; built from that commit (buildCommit: self); ${WEAKER}`, evidence };
  const parent = intro.parentShas[0];
  if (!parent) return { method, answered: false, reason: `${introText}, a root commit: it has no parent to have been built from (set provenance.buildCommit: self if it was built from itself)`, evidence };
  return { method, answered: true, commit: parent, reason: `${introText}; built from its first parent; ${WEAKER}`, evidence };
}
