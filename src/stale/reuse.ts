/**
 * Answer-level reuse: a `stale` rerun whose new commits touch nothing any
 * judged image depends on gives the answer kept by the run before, without
 * reading history, provenance sources or judging anything.
 *
 * What is kept (namespace `answer`, keyed on the real root, the config's hash,
 * the revision and `--only`): the report minus its per-run stats, the commit it
 * judged (T0), the id of the tree snapshot it was derived from
 * (snapshot/repo.ts), the root's prefix in its work tree, the shallow state, and
 * what provenance read outside history: git-tag's tags and tag-commit's
 * abbreviation lookups (provenance/sources.ts `observed`, exactly what that run
 * saw). Nothing is kept when the run could not be tied to a snapshot, when
 * history rewriters were present (replace refs, grafts: git/history-join.ts),
 * or for options whose answer is not a function of the facts below (registry,
 * a caller's own scan or history, any option not known here). PR mode keeps and
 * takes the judgement before its split (pr-mode.ts), under the same key.
 *
 * The next run reuses the answer when all of these hold, and says the first one
 * that does not under -v:
 * - the same options and config (the key), no history rewriters now;
 * - HEAD resolves to T0, or every commit of `git log --raw HEAD --not T0` (one
 *   process; merges diffed against their first parent, root commits in full)
 *   changes no path any judged image's input matcher matches
 *   (sources/matcher.ts inputMatcher over its patterns and ignores, the matcher
 *   the judge uses; an `unknown` image was not judged: its inputs may change)
 *   and no pinwatch config file; adds no judged digest to, and
 *   takes none out of, a pin file or a file the scan would read as one
 *   (`digestEdits`: the digests the old and new blobs hold, one `cat-file`);
 *   and adds, to no pin file where an image is pinned by tag, a tag of an
 *   image pinned there (tag history's own reader, `readTagAdditions`, over
 *   those commits and those files: one `git log -p`, only when one changes
 *   and nothing else rules reuse out);
 *   and T0 is on HEAD's first-parent chain through those commits;
 * - the same prefix, the same shallow state, the same tags (when git-tag is a
 *   method), the same answers for the abbreviations tag-commit looked up;
 * - the tree snapshot holds (deriveTree's own check) and is the very one the
 *   answer was derived from (its id): the same pins, images and inputs.
 *
 * Why the answer is then the same as a full run's (the argument):
 * - Images, pins, inputs and notes come from the work tree: the snapshot check.
 * - Every commit HEAD reaches is T0's history or one of the new commits N.
 *   The commits of T0's history are immutable (no rewriters), so their changes,
 *   dates, subjects, messages and patch ids are those the kept run saw.
 * - digest-history finds where a pin file (or a former one: a file the scan
 *   would read as a pin file that a commit took the digest out of) took a
 *   judged digest, from the digests each change adds and takes out: no commit
 *   of N adds or takes out one in such a file (nor, for a merge, brings such a
 *   change), so every introduction, copy, return, move and former pin file is
 *   the one found before. tag-history's candidates are the commits whose patch
 *   adds a wanted tag to a stamped pin's file, newest first (the first
 *   MAX_CANDIDATES checked, by the blobs at each and its parent): no commit of N
 *   is one, by the very reader that pass uses over the same files (a wanted tag
 *   is one of the pin's tags, among those asked), so its candidates and every
 *   blob it reads are those of before. So the introducing commits and everything
 *   older are unchanged.
 *   tag-commit answers from the image tags (the snapshot) and the abbreviation
 *   lookups (checked again); git-tag from the tags (hashed again) and their
 *   trees (immutable). The shallow boundary is checked. So every build commit B
 *   is the same, and B's history is fixed.
 * - An image is `unknown` exactly when it was not judged (history.ts toImage):
 *   no method gave a build commit, or it has no inputs. Its answer is that
 *   provenance (the same, above) and its inputs (the snapshot): no commit is
 *   listed for it, so a commit of N that changes its inputs changes nothing.
 * - Unshipped commits of a judged image are the non-merge commits HEAD reaches that B
 *   does not and that touch its inputs: those of N touch none, the others are
 *   T0's, unchanged. Cherry-pick pools lie in B's history and are filtered by
 *   the candidates' dates and paths: unchanged. The window reads until the
 *   answer is settled and every settled point answers the same (window.ts).
 * - PR numbers come from the subject of the first-parent commit that brought a
 *   commit in (pr-owner.ts, oldest first): T0 is on HEAD's first-parent chain,
 *   so every commit of T0's history keeps its owner.
 * - The clock enters only `oldestUnshipped.ageDays`: recomputed for this run.
 * - `head` is this run's HEAD; gitProcesses, timings and `reused` are this run's.
 * A subject of N (a forged "release" message) is never read by any method.
 */
import { basename, resolve } from 'node:path';
import type { Cache } from '../cache/index.js';
import { CONFIG_FILE_NAMES } from '../config/defaults.js';
import type { Config } from '../config/types.js';
import { BlobBatch, isNullBlob, rawLogArgs, parseRawLog, type HistoryCommit, type RawEntry } from '../git/history.js';
import { historyRewriters } from '../git/history-join.js';
import { newNonce } from '../git/log-parse.js';
import { resolveAbbreviations, type Abbreviation } from '../git/objects.js';
import { git, gitStats } from '../git/run.js';
import { shallowStateOf, type ShallowState } from '../git/shallow.js';
import { readTags } from '../git/tags.js';
import { walkReadsPath } from '../scan/walk.js';
import { configHash, realOf } from '../snapshot/check.js';
import { inputMatcher, pathIndex } from '../sources/matcher.js';
import { agedAt } from './age.js';
import type { AskedFacts } from './window.js';
import type { ObservedFacts } from './history.js';
import type { PickFacts } from './unshipped.js';
import type { StaleReport } from './types.js';
import { nowMs } from '../util/clock.js';

/** The cache namespace of kept answers. */
export const ANSWER_NS = 'answer';

/** A report as staleReport returns it (stale/repo.ts): the engine's, with notes. */
export type AnswerReport = StaleReport & { notes: string[] };

/**
 * The options whose answer this module knows to be a function of the facts it
 * checks. `base` (PR mode) is not in the key: the answer kept is the judgement
 * before the PR's own commits are split off (pr-mode.ts), which the caller does.
 */
export interface AnswerOptions {
  head?: string;
  only?: string[];
  now?: Date;
  base?: string;
}

/** What is kept with an answer. */
interface KeptAnswer {
  tip: string;
  snapshot: string;
  prefix: string;
  shallow: string;
  tags?: string;
  abbreviations?: [string, string][];
  /** The hash of the images it judged (partial.ts imagesHash), which its pick facts must carry too (PICKS_NS). */
  images?: string;
  report: Omit<AnswerReport, 'gitProcesses' | 'history' | 'timings' | 'reused'>;
}

/** Why an option rules reuse out (undefined: it does not). */
function optionRefusal(name: string): string {
  if (name === 'registry') return 'registry-backed provenance (--registry) reads outside the repository';
  if (name === 'scan' || name === 'model' || name === 'known' || name === 'history') return `the caller passed its own ${name}`;
  return `option ${name} is not known to the answer cache`;
}

const KNOWN_OPTIONS = new Set(['head', 'only', 'now', 'base']);

/** The key of the answer for these options, or why there is none. */
function answerKey(repo: string, config: Config, opts: AnswerOptions): { key: string } | { refused: string } {
  for (const [name, value] of Object.entries(opts as Record<string, unknown>)) {
    if (value === undefined || KNOWN_OPTIONS.has(name)) continue;
    if (name === 'only' && Array.isArray(value) && value.length === 0) continue;
    return { refused: optionRefusal(name) };
  }
  const rev = opts.head ?? 'HEAD';
  if (rev.startsWith('-')) return { refused: `revision ${JSON.stringify(rev)} looks like an option` };
  // the root as given too: a subdirectory root's warning names it so
  return { key: JSON.stringify(['answer', realOf(resolve(repo)), repo, configHash(config), rev, opts.only ?? []]) };
}

const shallowText = (s: ShallowState) => JSON.stringify([s.shallow, [...s.boundary].sort()]);
const tagsText = (tags: Map<string, string>) => JSON.stringify([...tags].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
const abbreviationText = (a: Abbreviation) => ('commit' in a ? `commit ${a.commit}` : 'ambiguous' in a ? 'ambiguous' : 'absent');

/**
 * New commits that touch the inputs of some judged images and nothing else the
 * answer rests on (no pin file, no config; every other fact holds): the images
 * they touch may be judged again alone (stale/partial.ts).
 */
export interface Touched {
  /** The touched images' names, in the kept report's order. */
  images: string[];
  /** The new commits (`git log --raw HEAD --not T0`, merges diffed against their first parent), newest first. */
  commits: HistoryCommit[];
  head: string;
  tip: string;
  ms: number;
}

/** One run's decision: reuse the kept answer (with what to say), or why not (`touched`: only image inputs were). */
export type Verdict = ({ ok: true; head: string; newCommits: number; tip: string; ms: number; quietPinEdits?: number; quietTagEdits?: number; unjudged?: string[] } | { ok: false; reason: string; touched?: Touched }) & {
  /** Git processes the check started after its first ones (the blob reader of `digestEdits`, the tag log of `tagAdditions`), which a full judgement counts as its own. */
  spawned?: number;
};

/** A run's look at the kept answer: started at once, its git reads running while the tree is checked. */
export interface AnswerReuse {
  /** The key this run's answer is kept under, when it may be kept. */
  key?: string;
  /** Why the answer was not reused, when that is known without git. */
  refused?: string;
  /** The kept answer's git facts, checked (only when one is kept). */
  verdict?: Promise<Verdict>;
  /** The root's git dir (`rev-parse --absolute-git-dir`), asked in the same rev-parse as HEAD (only when one is kept; undefined: not known). */
  gitDir?: Promise<string | undefined>;
  /** Whether history rewriters were present at the start (nothing is kept then). */
  rewriters?: string;
  kept?: KeptAnswer;
  /** The git facts the check asked that a full judgement asks too, handed on so git is asked once (only when one is kept). */
  asked?: AskedFacts;
}

const short = (sha: string) => sha.slice(0, 10);

/** Open the kept answer of `root` (as the caller gave it) for these options, and start checking its git facts. */
export function openAnswer(root: string, config: Config, opts: AnswerOptions, cache: Cache): AnswerReuse {
  if (!cache.enabled) return { refused: 'no cache' };
  const keyed = answerKey(root, config, opts);
  if ('refused' in keyed) return { refused: keyed.refused };
  const rewriters = historyRewriters(root);
  if (rewriters) return { refused: `history rewriters: ${rewriters}`, rewriters };
  const kept = cache.getValue<KeptAnswer>(ANSWER_NS, keyed.key);
  if (!wellFormed(kept)) return { key: keyed.key, refused: 'none kept for this checkout path, these options, config and pinwatch build' };
  const t0 = nowMs();
  const rev = opts.head ?? 'HEAD';
  const head = headAndShallow(root, rev);
  const tags = kept.tags !== undefined || config.provenance.methods.includes('git-tag') ? readTags(root) : undefined;
  tags?.catch(() => undefined); // checkFacts reports it; a judgement asks again
  const verdict = checkFacts(root, rev, kept, config, t0, head, tags).catch((e: unknown): Verdict => ({ ok: false, reason: `git could not tell (${e instanceof Error ? e.message.split('\n')[0] : String(e)})` }));
  const facts = head.then(
    (h) => (h.head.commit !== undefined && h.head.prefix !== undefined ? { head: { commit: h.head.commit, prefix: h.head.prefix }, shallow: h.shallow } : undefined),
    () => undefined,
  );
  return { key: keyed.key, kept, verdict, gitDir: head.then((h) => h.gitDir, () => undefined), asked: { rev, facts, ...(tags ? { tags } : {}) } };
}

function wellFormed(k: KeptAnswer | undefined): k is KeptAnswer {
  return !!k && typeof k.tip === 'string' && typeof k.snapshot === 'string' && typeof k.prefix === 'string' && typeof k.shallow === 'string' && !!k.report && Array.isArray(k.report.images);
}

/** The commits HEAD reaches and T0 does not, with raw entries (merges against their first parent, roots in full). */
async function newCommits(root: string, rev: string, tip: string): Promise<HistoryCommit[]> {
  const nonce = newNonce();
  const out = await git(root, [...rawLogArgs(nonce), '--diff-merges=first-parent', '--root', rev, '--not', tip, '--']);
  return parseRawLog(out, nonce);
}

/**
 * HEAD's commit, the root's prefix, the shallow state and the git dir in one
 * `rev-parse` (shallow.ts and objects.ts ask the first three in two, the
 * journal the last in another): the flag, the commit, then the prefix, the
 * shallow file's path and the git dir, which are printed raw (a newline in
 * any leaves the split unsure: then no prefix is known, and no reuse).
 */
async function headAndShallow(root: string, rev: string): Promise<{ head: { commit?: string; prefix?: string }; shallow: ShallowState; gitDir?: string }> {
  const out = await git(root, ['rev-parse', '--is-shallow-repository', `${rev}^{commit}`, '--show-prefix', '--git-path', 'shallow', '--absolute-git-dir']);
  const lines = (out.endsWith('\n') ? out.slice(0, -1) : out).split('\n');
  const [flag = '', commit = '', prefix, path, gitDir] = lines;
  const ok = lines.length === 5 && /^([0-9a-f]{40}|[0-9a-f]{64})$/.test(commit);
  return { head: ok ? { commit, prefix } : {}, shallow: shallowStateOf(root, flag, ok ? path! : ''), ...(ok && gitDir ? { gitDir } : {}) };
}

async function checkFacts(root: string, rev: string, kept: KeptAnswer, config: Config, t0: number, asked: ReturnType<typeof headAndShallow>, askedTags: Promise<Map<string, string>> | undefined): Promise<Verdict> {
  const [{ head, shallow }, commits, tags, abbreviations] = await Promise.all([
    asked,
    newCommits(root, rev, kept.tip),
    askedTags,
    kept.abbreviations ? resolveAbbreviations(root, kept.abbreviations.map(([a]) => a)) : undefined,
  ]);
  if (!head.commit) return { ok: false, reason: `${rev} names no commit` };
  if ((head.prefix ?? '') !== kept.prefix) return { ok: false, reason: 'the root sits elsewhere in its work tree' };
  if (shallowText(shallow) !== kept.shallow) return { ok: false, reason: 'the shallow state changed' };
  if (tags && (kept.tags === undefined || tagsText(tags) !== kept.tags)) return { ok: false, reason: 'the git tags changed (git-tag provenance reads them)' };
  if (kept.abbreviations) {
    for (const [abbrev, was] of kept.abbreviations) {
      const now = abbreviations?.get(abbrev);
      if (!now || abbreviationText(now) !== was) return { ok: false, reason: `the commit abbreviation ${abbrev} an image tag embeds resolves otherwise now` };
    }
  }
  const tip = kept.tip;
  const ms = Math.round(nowMs() - t0);
  if (head.commit === tip) return commits.length === 0 ? { ok: true, head: tip, newCommits: 0, tip, ms } : { ok: false, reason: 'HEAD moved while it was read' };
  if (commits.length === 0 || commits[0]!.sha !== head.commit) return { ok: false, reason: `${short(tip)} is not an ancestor of ${rev} (history rewritten, or ${rev} moved back)` };
  // T0 on HEAD's first-parent chain, through the new commits only
  const bySha = new Map(commits.map((c) => [c.sha, c]));
  for (let at: HistoryCommit | undefined = commits[0]; ; ) {
    const first: string | undefined = at!.parentShas[0];
    if (first === tip) break;
    at = first === undefined ? undefined : bySha.get(first);
    if (!at) return { ok: false, reason: `${short(tip)} is not on ${rev}'s first-parent chain (merged in as a side branch, or not in its history at all: amended, force-pushed)` };
  }
  const edits = await digestEdits(root, commits, kept.report, walkReadsPath(config));
  // first as if no new commit added a tag: a change that blocks anyway needs no tag log (the full judgement's tag history reads it)
  let touches = touchesOf(commits, kept.report, edits && { ...edits, addsTag: () => false });
  let processes = edits ? 1 : 0;
  if (!touches.blocking && edits?.tagFiles?.length) {
    const adds = await tagAdditions(root, kept.report, edits.tagFiles, rev, tip);
    processes++;
    touches = touchesOf(commits, kept.report, { ...edits, addsTag: (sha, path) => adds.has(`${sha}\0${path}`) });
  }
  const spawned = processes > 0 ? { spawned: processes } : {};
  if (touches.first) {
    const only = touches.blocking ? undefined : { images: kept.report.images.map((i) => i.image).filter((n, i, all) => touches.inputs.has(n) && all.indexOf(n) === i), commits, head: head.commit, tip, ms };
    return { ok: false, reason: touches.first, ...(only ? { touched: only } : {}), ...spawned };
  }
  const unjudged = kept.report.images.map((i) => i.image).filter((n, i, all) => touches.unjudged.has(n) && all.indexOf(n) === i);
  return { ok: true, head: head.commit, newCommits: commits.length, tip, ms, ...(touches.quietPinEdits > 0 ? { quietPinEdits: touches.quietPinEdits } : {}), ...(touches.quietTagEdits > 0 ? { quietTagEdits: touches.quietTagEdits } : {}), ...(unjudged.length > 0 ? { unjudged } : {}), ...spawned };
}

/** What the new commits do to the digests and tags judged, for `touchesOf`: which changes add or take out a digest, which add a tag, of which files. */
export interface DigestEdits {
  /** Files the scan would read as pin files (scan/walk.ts walkReadsPath). */
  pinLike(path: string): boolean;
  /** Whether this change adds a judged digest to its file or takes one out (undefined blobs: said to). */
  moves(entry: RawEntry): boolean;
  /**
   * Whether commit `sha` adds, to `path` (a pin file where an image is pinned by tag), a tag of an image pinned
   * there: a candidate of that image's tag history. Absent: every such change is said to.
   */
  addsTag?(sha: string, path: string): boolean;
  /** The changed pin files where an image is pinned by tag (`tagAdditions` asks of them). */
  tagFiles?: readonly string[];
}

/**
 * Read the blobs of the new commits' changes to pin files and to the files the
 * scan would read as pin files (one `cat-file --batch`, only when there are such
 * changes), and say which add or take out a judged digest, and which changed pin
 * files have an image pinned by tag (`tagAdditions` then says which commits add
 * a tag there). Undefined when there is nothing to read.
 */
async function digestEdits(root: string, commits: readonly HistoryCommit[], report: Pick<AnswerReport, 'images'>, pinLike: (path: string) => boolean): Promise<DigestEdits | undefined> {
  const byDigest = digestPinned(report);
  const asked = commits.flatMap((c) => c.entries).filter((e) => byDigest.has(e.path) || (!CONFIG_NAMES.has(basename(e.path)) && pinLike(e.path)));
  if (asked.length === 0) return undefined;
  const judged = new Set(report.images.flatMap((i) => (i.digest ? [i.digest] : [])));
  const batch = new BlobBatch(root);
  try {
    const digestsOf = async (id: string): Promise<ReadonlySet<string> | undefined> => (isNullBlob(id) ? new Set<string>() : batch.digests(id));
    const moving = new Set<RawEntry>();
    await Promise.all(
      asked.map(async (e) => {
        const [before, after] = await Promise.all([digestsOf(e.oldBlob), digestsOf(e.newBlob)]);
        if (!before || !after || [...judged].some((d) => before.has(d) !== after.has(d))) moving.add(e);
      }),
    );
    const tagFiles = [...new Set(asked.filter((e) => byDigest.get(e.path) === false).map((e) => e.path))].sort();
    return { pinLike, moves: (e) => moving.has(e), ...(tagFiles.length > 0 ? { tagFiles } : {}) };
  } finally {
    batch.close();
  }
}

/**
 * The new commits (`rev --not tip`) that add, to one of `files` (pin files where
 * an image is pinned by tag), a tag of an image pinned there, as `<sha>\0<file>`:
 * tag history's own reader (git/tag-history.ts, one `git log -p` of those files),
 * so a commit is here exactly when tag history's pass would take it for a
 * candidate. Loaded only here: a rerun that changes no such file never loads it.
 */
async function tagAdditions(root: string, report: Pick<AnswerReport, 'images'>, files: readonly string[], rev: string, tip: string): Promise<Set<string>> {
  const tags = new Set(report.images.filter((i) => i.pins.some((p) => files.includes(p.file))).flatMap((i) => i.tags));
  const { readTagAdditions } = await import('../git/tag-history.js');
  const found = await readTagAdditions(root, tags, [...files], rev, undefined, [tip]);
  return new Set(found.flatMap((o) => [...o.addedTo.values()].flat().map((f) => `${o.commit}\0${f}`)));
}

/** Per pin file of the answer: whether every image pinned there carries a digest (false: some image is pinned by tag there). */
function digestPinned(report: Pick<AnswerReport, 'images'>): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const img of report.images) for (const p of img.pins) out.set(p.file, (out.get(p.file) ?? true) && !!img.digest);
  return out;
}

const CONFIG_NAMES = new Set(CONFIG_FILE_NAMES.map((n) => basename(n)));

/** The first change of `commits` to a pin file, an input of a judged image or a config file, said; undefined when none. */
export function firstTouch(commits: readonly HistoryCommit[], report: Pick<AnswerReport, 'images'>, edits?: DigestEdits): string | undefined {
  return touchesOf(commits, report, edits).first;
}

/**
 * Every change of `commits` the answer rests on: the first, said; whether any
 * is blocking (a full judgement: a config file; a pin file, unless `edits` says
 * the change adds or takes out no judged digest and every image pinned there
 * carries one; a file the scan would read as a pin file that gains or loses a
 * judged digest); the judged images whose inputs any touches, and the images
 * not judged (`unknown`) whose inputs any touches (said, never blocking); how many changes to pin
 * files were found to leave every judged digest where it was.
 */
export function touchesOf(commits: readonly HistoryCommit[], report: Pick<AnswerReport, 'images'>, edits?: DigestEdits): { first?: string; blocking: boolean; inputs: Set<string>; unjudged: Set<string>; quietPinEdits: number; quietTagEdits: number } {
  const pins = new Map<string, string>();
  for (const img of report.images) for (const p of img.pins) pins.set(p.file, img.image);
  const byDigest = digestPinned(report);
  // which images' inputs each changed path is, every matcher asked once over an index of the distinct paths (as the judge asks)
  const index = pathIndex(new Set(commits.flatMap((c) => c.entries.map((e) => e.path))));
  // an image not judged (`unknown`: no build commit, or no inputs) lists no commit, and no commit changes why: its inputs are matched only to say so
  const inputOf = new Map<string, string[]>();
  const unjudgedOf = new Map<string, string[]>();
  for (const img of report.images) {
    const m = inputMatcher({ image: img.image, inputs: img.inputs.patterns, ignore: img.inputs.ignore, steps: [] });
    const of = img.status === 'unknown' ? unjudgedOf : inputOf;
    for (const path of m.matching(index)) {
      const list = of.get(path);
      if (!list) of.set(path, [img.image]);
      else if (!list.includes(img.image)) list.push(img.image);
    }
  }
  let first: string | undefined;
  const inputs = new Set<string>();
  const unjudged = new Set<string>();
  let quietPinEdits = 0;
  let quietTagEdits = 0;
  for (const c of commits) {
    for (const entry of c.entries) {
      const { path } = entry;
      const say = (what: string) => (first ??= `${short(c.sha)} changes ${path}, ${what}`);
      // a blocking change means a full judgement: the first change is all that is said then
      const blocking = (what: string) => {
        say(what);
        return { first: first!, blocking: true, inputs, unjudged, quietPinEdits, quietTagEdits };
      };
      if (pins.has(path)) {
        const of = `a pin file of ${pins.get(path)}`;
        if (!edits) return blocking(of);
        if (byDigest.get(path) === false && (!edits.addsTag || edits.addsTag(c.sha, path))) return blocking(`${of} (pinned there by tag, adding a tag judged: its tag history reads the file)`);
        if (edits.moves(entry)) return blocking(`${of}, adding or taking out a digest judged`);
        quietPinEdits++;
        if (byDigest.get(path) === false) quietTagEdits++;
      } else if (CONFIG_NAMES.has(basename(path))) {
        return blocking('a pinwatch config file');
      } else if (edits?.pinLike(path) && edits.moves(entry)) {
        return blocking('a file read as a pin file, adding or taking out a digest judged');
      }
      for (const image of inputOf.get(path) ?? []) {
        say(`an input of ${image}`);
        inputs.add(image);
      }
      for (const image of unjudgedOf.get(path) ?? []) unjudged.add(image);
    }
  }
  return { ...(first !== undefined ? { first } : {}), blocking: false, inputs, unjudged, quietPinEdits, quietTagEdits };
}

/** The kept answer, as this run's: HEAD, ages at this run's clock, this run's stats. */
export function reusedReport(kept: KeptAnswer, verdict: Extract<Verdict, { ok: true }>, now: Date, startProcesses: number, timings: Record<string, number>): AnswerReport {
  const images = agedAt(kept.report.images, now);
  return {
    ...kept.report,
    head: verdict.head,
    images,
    gitProcesses: gitStats.processes - startProcesses,
    timings: { facts: verdict.ms, ...timings },
    reused: { from: verdict.tip, newCommits: verdict.newCommits },
  };
}

/** The -v words for changes to pin files that left every judged digest where it was, and for inputs of images not judged that changed. */
export const quietText = (n: number | undefined, tagged?: number, unjudged?: readonly string[]): string =>
  (n ? ` (${n} change(s) to pin files, none adding or taking out a digest judged${tagged ? `; ${tagged} of them where an image is pinned by tag, none adding a tag judged` : ''})` : '') +
  (unjudged?.length ? ` (inputs changed of ${unjudged.length} image(s) not judged, whose answer no commit changes: ${unjudged.join(', ')})` : '');

/** Say under -v what happened to the answer. */
export function noteVerdict(cache: Cache, verdict: Verdict | { ok: false; reason: string }): void {
  if (verdict.ok) cache.note(`answer reused from ${short(verdict.tip)}: ${verdict.newCommits} new commit(s) touch no image's pins or inputs${quietText(verdict.quietPinEdits, verdict.quietTagEdits, verdict.unjudged)}`);
  else cache.note(`answer not reused: ${verdict.reason}`);
}

/**
 * Keep this run's answer for the next (when it can be tied to the facts above):
 * `snapshot` the id of the tree snapshot it was derived from, `observed` what
 * computeStale filled in; with `images` (the hash of the images judged,
 * partial.ts `imagesHash`) and observed pick facts, those too, in an entry of
 * their own that only a partial judgement reads.
 */
export function keepAnswer(root: string, cache: Cache, reuse: AnswerReuse, report: AnswerReport, snapshot: string | undefined, observed: ObservedFacts, images?: string): void {
  if (!cache.enabled || !reuse.key || reuse.rewriters || !snapshot || !observed.shallow || observed.prefix === undefined) return;
  // rewriters that appeared while it ran: what git showed may not be the commits' own history
  if (historyRewriters(root)) return;
  putAnswer(cache, reuse.key, report, {
    snapshot,
    prefix: observed.prefix,
    shallow: shallowText(observed.shallow),
    ...(observed.tags ? { tags: tagsText(observed.tags) } : {}),
    ...(observed.abbreviations ? { abbreviations: [...observed.abbreviations].map(([a, r]) => [a, abbreviationText(r)] as [string, string]) } : {}),
    ...(images !== undefined && observed.picks ? { images } : {}),
  });
  if (images !== undefined && observed.picks) putPicks(cache, reuse.key, report.head, images, observed.picks);
}

/** Keep an answer some of whose images were judged again (partial.ts) on the facts the kept one was checked on, with its new pick facts. */
export function keepJudgedAgain(root: string, cache: Cache, reuse: AnswerReuse, report: AnswerReport, snapshot: string, images: string, picks: (PickFacts | undefined)[]): void {
  if (!cache.enabled || !reuse.key || !reuse.kept || reuse.rewriters || historyRewriters(root)) return;
  const { tip: _t, snapshot: _s, report: _r, images: _i, ...facts } = reuse.kept;
  putAnswer(cache, reuse.key, report, { ...facts, snapshot, images });
  putPicks(cache, reuse.key, report.head, images, picks);
}

/**
 * Keep the answer `reuse` opened as it is (the same commit, facts and pick facts),
 * tied to another tree snapshot whose images are the very ones it judged (its
 * report showing them where that tree writes them: history.ts presentedAs), with
 * this run's notes: the next run finds that snapshot holding, and reuses it
 * without deriving anything.
 */
export function keepOnSnapshot(root: string, cache: Cache, reuse: AnswerReuse, snapshot: string, notes: string[]): void {
  if (!cache.enabled || !reuse.key || !reuse.kept || reuse.rewriters || historyRewriters(root)) return;
  cache.putValue(ANSWER_NS, reuse.key, { ...reuse.kept, snapshot, report: { ...reuse.kept.report, notes } } satisfies KeptAnswer);
}

function putAnswer(cache: Cache, key: string, report: AnswerReport, facts: Omit<KeptAnswer, 'tip' | 'report'>): void {
  const { gitProcesses: _g, history: _h, timings: _t, reused: _r, ...rest } = report;
  cache.putValue(ANSWER_NS, key, { tip: report.head, ...facts, report: rest } satisfies KeptAnswer);
}

/** The cache namespace of the pick facts of a kept answer (read only to judge some images again, never by a reused answer). */
export const PICKS_NS = 'answer-picks';

/** The pick facts kept with the answer judged at `tip`, per image of its report, and the hash of the images it judged. */
export interface KeptPicks {
  tip: string;
  images: string;
  picks: (PickFacts | undefined)[];
}

/** Kept under the answer's own key (one entry, replaced with the answer), with the commit it is for inside. */
function putPicks(cache: Cache, key: string, tip: string, images: string, picks: (PickFacts | undefined)[]): void {
  cache.putValue(PICKS_NS, key, { tip, images, picks } satisfies KeptPicks);
}

/**
 * The pick facts kept with the answer `reuse` opened, when they are there, well
 * formed and that answer's (the same commit and images hash: two runs keeping at
 * once never pair one's answer with the other's facts).
 */
export function openPicks(cache: Cache, reuse: AnswerReuse): KeptPicks | undefined {
  if (!reuse.key || !reuse.kept || reuse.kept.images === undefined) return undefined;
  const kept = cache.getValue<KeptPicks>(PICKS_NS, reuse.key);
  if (!kept || kept.tip !== reuse.kept.tip || kept.images !== reuse.kept.images || !Array.isArray(kept.picks) || kept.picks.length !== reuse.kept.report.images.length) return undefined;
  return kept;
}
