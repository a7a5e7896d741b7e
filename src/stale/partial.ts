/**
 * A kept answer judged again for the images new commits touch, and for those
 * alone (the CI rerun after a push that edits one image's sources): when the
 * only thing that kept the answer from being reused (reuse.ts) is that new
 * commits change inputs of some judged images, and the images judged now are
 * the very ones the answer judged (what a judgement reads of their pins, inputs
 * and stamps: `imagesHash`; the report shows them where they are written now),
 * each touched image's judgement is the kept one plus the new commits that touch
 * its inputs, and every other image's is the kept one. No history is read: one
 * `git log` of the new candidates' messages (fix trailers) is the only git process.
 *
 * Why that is the answer a full run gives (reuse.ts argues the rest: the build
 * commits, the old commits and their PR owners are unchanged):
 * - An untouched image: no new commit is a candidate; its cherry-pick pool is its
 *   build's history authored at or after its oldest candidate, which is no older
 *   than the oldest commit outside the build, so a new commit authored earlier
 *   than that (which widens the superset the pool is cut from) adds nothing to it.
 *   Its pick facts are kept as they are: `oldestOutside` may then be later than the
 *   oldest commit outside the build, which only refuses more (below).
 * - A touched image whose build commit is in the answer's HEAD history (kept
 *   `inHead`): no new commit is in the build's history, so every new non-merge
 *   commit that touches an input is a candidate. One built off that history (a
 *   release branch): the same once one `git rev-list <builds> --not <answer's
 *   commit>` shows no new commit in its build's history (refused otherwise: that
 *   branch was merged). It is unshipped unless it could
 *   pair with a commit of the pool (same changed paths, and the same subject stem or
 *   author date: history.ts plausiblePicks): the kept `keys` hold those pairs
 *   of every superset commit authored since the oldest candidate, so a new
 *   candidate whose key is among them, or one authored before that oldest
 *   candidate (the pool would grow for the old candidates too), or one authored
 *   before the kept `oldestOutside` (its pool would reach past the superset the
 *   keys were taken from), is refused: a full judgement. A new commit that is
 *   no candidate widens the superset however old it is, but no pool: a pool is
 *   cut at its oldest candidate. Without old candidates the kept
 *   `keys` are those of every superset commit that changes an input, whatever its
 *   date (unshipped.ts PickFacts `inputKeys`): a partner changes the very paths its
 *   candidate does, an input among them, so a new candidate (no older than
 *   `oldestOutside`) whose key is not among them has none (an answer kept without
 *   them: the pool is empty while every new one is authored after the superset's
 *   newest commit).
 * - Unshipped commits are listed newest first (unshipped.ts newestFirst: by author
 *   date, a tie each before its ancestors, then by id): the kept lists are in that
 *   order, the new commits are put in it among themselves (the ancestry of two
 *   new commits lies among the new commits), and a new commit authored at the
 *   same second as a kept one of the same image, whose ancestry the kept answer
 *   does not hold, is refused. Cherry-picked commits are listed in the same
 *   order; a new commit is never one (a candidate that may pair is refused
 *   above), and the old ones' partners stay where they were (a partner changes
 *   the very paths its commit does, so the pool held it already), so the kept
 *   lists are the full run's.
 * - Each new commit is described as a full run describes it (history.ts
 *   describeCommit): its PR owner is the first-parent commit among the new ones
 *   that brought it in (the answer's commit is on HEAD's first-parent chain).
 * Anything else (a root commit, a date that does not parse, an image with no
 * pick facts) is refused with the reason, and the full judgement runs. An
 * `unknown` image is never touched (reuse.ts touchesOf: it was not judged, so
 * no commit changes its answer).
 */
import { createHash } from 'node:crypto';
import { graphOf } from '../git/history.js';
import { presentedAs } from './history.js';
import { readCommitMessages } from '../git/messages.js';
import { runGit } from '../git/run.js';
import { inputMatcher } from '../sources/matcher.js';
import { agedAt, oldestOf } from './age.js';
import { describeCommit } from './commit-meta.js';
import { firstParentOwners } from './pr-owner.js';
import type { KeptPicks, Touched } from './reuse.js';
import type { StaleImage, StaleImageInput, StaleReport, UnshippedCommit } from './types.js';
import { commitsByPath, newestFirst, pathsKey, pickKey, subjectStem, touchingInputs, type PickFacts } from './unshipped.js';

/**
 * The hash of what a judgement reads of the images, over their JSON
 * (undefined members left out and shared objects written out where used: a
 * structured clone of a kept image and one derived afresh differ there; Maps
 * and Sets as their entries; the images layer builds them afresh every run with
 * the same code, so their keys come in one order), with where things are
 * written left out. A pin's line, column and spans, and the line of
 * the Chart.yaml its tag comes from; a stamped pin's line (it is tied to its
 * pin by that pin's place instead, as provenance pairs them by file and line:
 * provenance/subjects.ts); an input's `why` and the inputs' steps (words for
 * the report, which name Dockerfile and recipe lines); the recipes (computeStale
 * reads none: what it takes of them is in `stamped` and `inputs`, and a
 * workflow step's target names its line). Anything else counts as it is. Images
 * with the same hash are judged alike (stale/history.ts reads positions
 * only to pair those pins); only where the report says they are written
 * differs, and history.ts presentedAs writes that from this run's images.
 */
export function imagesHash(images: readonly StaleImageInput[]): string {
  const view = images.map((image) => {
    const { recipes: _recipes, ...rest } = image as StaleImageInput & { recipes?: unknown };
    const at = (file: string, line: number) => rest.pins.findIndex((p) => p.file === file && p.line === line);
    return {
      ...rest,
      pins: rest.pins.map(({ line: _l, column: _c, spans: _s, tagFrom, ...pin }) => ({ ...pin, ...(tagFrom ? { tagFrom: { file: tagFrom.file, key: tagFrom.key } } : {}) })),
      ...(rest.stamped ? { stamped: rest.stamped.map((s) => ({ file: s.file, by: s.by, pin: at(s.file, s.line) })) } : {}),
      ...(rest.inputs ? { inputs: { ...rest.inputs, inputs: rest.inputs.inputs.map(({ why: _w, ...p }) => p), steps: [] } } : {}),
    };
  });
  return createHash('sha256').update(JSON.stringify(view, entriesOf)).digest('hex');
}

function entriesOf(_key: string, value: unknown): unknown {
  if (value instanceof Map) return { Map: [...value] };
  if (value instanceof Set) return { Set: [...value] };
  if (value instanceof RegExp) return { RegExp: String(value) };
  return value;
}

/** The commits `builds` reach and `tip` does not (undefined: git could not list them). */
async function historyNotAt(repo: string, builds: string[], tip: string): Promise<Set<string> | undefined> {
  if (![...builds, tip].every((sha) => /^([0-9a-f]{40}|[0-9a-f]{64})$/.test(sha))) return undefined;
  const r = await runGit(repo, ['rev-list', ...new Set(builds), '--not', tip, '--']);
  return r.code === 0 ? new Set(r.stdout.split('\n').filter((l) => l !== '')) : undefined;
}

/** The kept report's images with the touched ones judged again, and the pick facts to keep with them. */
export interface JudgedAgain {
  images: StaleImage[];
  picks: (PickFacts | undefined)[];
  /** The images judged again (names, each once). */
  judged: string[];
}

/**
 * Judge again the images `touched` names, on top of the kept report and its
 * pick facts; `images` are this run's (their hash must be the kept one).
 */
export async function judgeTouched(
  repo: string,
  kept: Pick<StaleReport, 'images'>,
  picks: KeptPicks,
  touched: Touched,
  images: readonly StaleImageInput[],
  options: { now: Date; fixPattern?: RegExp },
): Promise<JudgedAgain | { refused: string }> {
  const refuse = (why: string) => ({ refused: why });
  if (picks.images !== imagesHash(images)) return refuse('the images judged are not the ones the answer judged (pins, inputs or recipes changed)');
  // the kept judgement, with each image's pins and inputs where this run's are written (history.ts presentedAs)
  const shown = presentedAs(kept.images, images);
  if (!shown) return refuse("the images judged do not pair one to one with the answer's");
  const { commits } = touched;
  const root = commits.find((c) => c.parentShas.length === 0);
  if (root) return refuse(`${root.sha.slice(0, 10)} is a root commit`);
  const times = new Map<string, number>();
  for (const c of commits) {
    if (c.parentShas.length > 1) continue;
    const t = Date.parse(c.date);
    if (Number.isNaN(t)) return refuse(`the author date of ${c.sha.slice(0, 10)} does not parse`);
    times.set(c.sha, t);
  }
  // a full run lists unshipped and cherry-picked commits in newestFirst's order, which the kept lists hold
  for (const image of shown) {
    if (image.unshipped.some((u) => Number.isNaN(Date.parse(u.date)))) return refuse(`${image.image} lists an unshipped commit whose author date does not parse`);
  }
  // the new commits as a graph of their own (parents outside it are the answer's history), merges changing nothing (as in the full pass)
  const graph = graphOf(commits);
  const outside = Uint8Array.from(graph.nodes, (n) => (n.parentShas.length < 2 ? 1 : 0));
  const byPath = commitsByPath(graph, new Map(commits.map((c) => [c.sha, c.parentShas.length < 2 ? c.entries.map((e) => e.path) : []])));
  const changedOf = new Map(commits.map((c) => [c.sha, c.entries.map((e) => e.path)]));
  const names = new Set(touched.images);
  const inputsOf = new Map(images.map((i) => [`${i.image}\0${i.repository}`, i]));

  // the history of touched images' builds that the answer's commit does not reach (one `git rev-list`, only when some was built off it)
  const offHead = shown.filter((image, k) => names.has(image.image) && image.status !== 'unknown' && picks.picks[k] && !picks.picks[k]!.inHead && image.builtFrom).map((image) => image.builtFrom!.commit);
  const inBuilds = offHead.length === 0 ? new Set<string>() : await historyNotAt(repo, offHead, touched.tip);

  const plans: { k: number; candidates: ReturnType<typeof touchingInputs> }[] = [];
  const next: (PickFacts | undefined)[] = [];
  for (const [k, image] of shown.entries()) {
    const facts = picks.picks[k];
    // an `unknown` image of a touched name (another pin of that name was judged) was not judged: untouched (reuse.ts touchesOf)
    if (!names.has(image.image) || image.status === 'unknown') {
      // untouched: the same judgement and the same facts (a new commit older than `oldestOutside` widens the superset,
      // not the pool of any candidate a later run accepts: those are authored at or after it)
      next.push(facts);
      continue;
    }
    const say = (why: string) => refuse(`${image.image} ${why}`);
    if (!facts) return say('has no pick facts kept (it was not judged)');
    if (!facts.inHead) {
      // built off the answer's history (a release branch): a new commit in the build's history (that branch merged) is no candidate
      const held = inBuilds === undefined ? undefined : commits.find((c) => inBuilds.has(c.sha));
      if (inBuilds === undefined || held) return say(held ? `was built off the history the answer judged, and the new commit ${held.sha.slice(0, 10)} is in that build's history` : 'was built off the history the answer judged, and git could not list that build\'s history');
    }
    if (!image.builtFrom || (image.status !== 'stale' && image.status !== 'current') || image.rebuild) return say(`is ${image.status}`);
    if ([facts.oldestOutside, facts.since, facts.supersetNewest].some(Number.isNaN)) return say('has pick facts that are not numbers');
    const input = inputsOf.get(`${image.image}\0${image.repository}`);
    if (!input?.inputs || input.inputs.unknownReason) return say('has no build inputs now');
    const candidates = touchingInputs(byPath, outside, inputMatcher(input.inputs));
    let since = facts.since;
    for (const c of candidates) {
      const node = graph.nodes[c.index]!;
      const t = times.get(node.sha)!;
      // its pool reaches back to it, past the superset the kept keys were taken from
      if (t < facts.oldestOutside) return say(`gains ${node.sha.slice(0, 10)}, authored before the oldest commit outside its build`);
      if (facts.since !== Infinity && t < facts.since) return say(`gains ${node.sha.slice(0, 10)}, authored before its oldest candidate`);
      // the keys hold every superset commit authored since the oldest candidate, or (no candidate yet: `inputKeys`)
      // every one that changes an input, whatever its date: where a partner of this one could be
      if (facts.since !== Infinity || facts.inputKeys) {
        const key = pathsKey(changedOf.get(node.sha) ?? []);
        if (facts.keys.includes(pickKey(key, 's', subjectStem(node.subject))) || facts.keys.includes(pickKey(key, 'd', node.date))) return say(`gains ${node.sha.slice(0, 10)}, which may be a cherry-pick of a commit in its build`);
      }
      since = Math.min(since, t);
    }
    if (facts.since === Infinity && !facts.inputKeys && candidates.length > 0 && since <= facts.supersetNewest) return say('gains a commit authored before the newest commit of its build\'s history');
    // with no old candidate the pool was empty: its keys are those of the inputs' commits (inputKeys), or none when every new one is newer than the superset
    next.push(candidates.length === 0 ? facts : { ...facts, since, keys: facts.since === Infinity && !facts.inputKeys ? [] : facts.keys });
    if (candidates.length > 0) plans.push({ k, candidates });
  }

  const messages = await readCommitMessages(repo, plans.flatMap((p) => p.candidates.map((c) => graph.nodes[c.index]!.sha)));
  const meta = { graph, owners: firstParentOwners(graph, touched.head), messages, ...(options.fixPattern ? { fixPattern: options.fixPattern } : {}) };
  const out = agedAt(shown, options.now);
  for (const { k, candidates } of plans) {
    const image = shown[k]!;
    // the new commits in newestFirst's order among themselves (their ties' ancestry lies within them); a new commit authored at the second of a kept one may descend from it or not, which the kept answer cannot tell
    const added = newestFirst(candidates.map((c) => describeCommit(meta, c)), graph);
    const keptTimes = new Set(image.unshipped.map((u) => Date.parse(u.date)));
    const tie = added.find((u) => keptTimes.has(Date.parse(u.date)));
    if (tie) return refuse(`${image.image} gains ${tie.commit.slice(0, 10)}, authored at the same second as an unshipped commit it lists`);
    // both lists newest first, no time in both: a stable sort by time alone keeps each one's ties in order
    const unshipped: UnshippedCommit[] = [...image.unshipped, ...added].sort((a, b) => Date.parse(b.date) - Date.parse(a.date));
    out[k] = { ...image, status: 'stale', unshipped, oldestUnshipped: oldestOf(unshipped, options.now)! };
  }
  return { images: out, picks: next, judged: [...new Set(plans.map((p) => shown[p.k]!.image))] };
}
