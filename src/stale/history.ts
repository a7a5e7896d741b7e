/**
 * Stale history: plain inputs (images with pins and build inputs) in, a
 * StaleReport out. Reads history in a constant number of git processes: shallow
 * state, tags (+ one cat-file --batch of the pin files at the git tags pins name),
 * one digest-history pass (+ bounded move rounds), one cat-file,
 * one commit-graph pass, one changed-paths pass, one diff-tree + one patch-id
 * (only for plausible cherry-pick pairs: same paths, and same subject or author date),
 * one read of the unshipped commits' messages (trailers, stale.fixPattern).
 */
import { PinwatchError } from '../errors.js';
import type { DigestHistoryResult } from '../git/digest-history.js';
import type { CommitGraph } from '../git/graph.js';
import { changedPathsOf } from '../git/history.js';
import { existingCommits } from '../git/objects.js';
import { patchIds } from '../git/patch-id.js';
import { gitStats, runGit } from '../git/run.js';
import type { ProvenanceMethod } from '../config/types.js';
import { introducerOf, resolveFromHistory, withIntroducerBuild } from '../provenance/digest-history.js';
import type { RegistryAsk } from '../provenance/registry.js';
import { pinnedAfterBuild, releaseBefore } from '../provenance/release.js';
import { resolveProvenance } from '../provenance/resolve.js';
import { provenanceSources, type ObservedRefs } from '../provenance/sources.js';
import type { ShallowState } from '../git/shallow.js';
import { subjectsOf, type Subject as ProvenanceSubject } from '../provenance/subjects.js';
import type { Provenance, TagRules } from '../provenance/types.js';
import { inputMatcher } from '../sources/matcher.js';
import { describeCommit, type CommitMeta } from './commit-meta.js';
import { readCommitMessages } from '../git/messages.js';
import { firstParentOwners } from './pr-owner.js';
import { prCommits, splitForPr } from './pr-mode.js';
import { phaseTimer, type PhaseTimer } from './timer.js';
import type { Pin } from '../model/index.js';
import type { StaleImage, StaleImageInput, StaleReport } from './types.js';
import { readWindow, startHistory, type StartedHistory } from './window.js';
import { authoredSince, cherryPickPool, commitsByPath, newestFirst, oldestTime, outsideBuild, pickFacts, subjectStem, timeIndex, touchingInputsIn, type Candidate, type PickFacts, type PickKeyMemo } from './unshipped.js';

export interface StaleOptions {
  /** Revision whose history is judged (default HEAD). */
  head?: string;
  /** Methods strongest first (default registry, digest-history, git-tag). */
  methods?: ProvenanceMethod[];
  buildCommit?: 'parent' | 'self';
  /** Set to ask the registry (`--registry`); `fn` defaults to src/registry/provenance.ts. */
  registry?: RegistryAsk;
  /** Clock for ages (tests pin it). */
  now?: Date;
  /** The config's tag rules (`tagRulesOf`): tag-commit pattern, git tag forms. */
  tagRules?: TagRules;
  /** `stale.fixPattern`: a message matching it marks an unshipped commit a fix. */
  fixPattern?: RegExp;
  /**
   * PR mode: the base revision. Commits reachable from HEAD but not from it are
   * the PR's own: listed per image as `rebuild`, never counted as unshipped.
   */
  base?: string;
  /**
   * The raw history pass, started before the scan (`startHistory`) so git reads
   * while the scan and the recipe model run; started here when absent or from another revision.
   */
  history?: StartedHistory;
  /** Tests: grow the history window by this many commits per check (every stopping point is tried). */
  windowStep?: number;
  /**
   * Every file the scan found a digest pin in, searched by digest history besides
   * the judged images' own pin files: where a digest was pinned first does not
   * depend on which images are judged (`stale IMAGE` answers as the whole run).
   */
  pinFiles?: readonly string[];
  /**
   * The paths the scan would read as pin files (scan/walk.ts `walkReadsPath`): a
   * file the history deletes that matches and whose deleted version held a judged
   * digest is searched as a pin file too, so a digest first pinned in a file deleted
   * since is dated by that pin. Absent: deleted files are not searched.
   */
  pinLike?: (path: string) => boolean;
  /** Filled with what the answer read besides history and the tree (stale/reuse.ts keeps it with the answer). */
  observed?: ObservedFacts;
}

/** The shallow state, the root's prefix, and the refs and object names provenance read. */
export interface ObservedFacts extends ObservedRefs {
  shallow?: ShallowState;
  prefix?: string;
  /** Per image of the report, in its order: the pick facts of its judgement (undefined where none was judged). */
  picks?: (PickFacts | undefined)[];
  /** PR mode: the images before the PR's own commits were split off (pr-mode.ts), what an answer keeps. */
  unsplit?: StaleImage[];
}

import { oldestOf } from './age.js';

type Subject = ProvenanceSubject<StaleImageInput>;

/**
 * The pin files digest history searches (StaleOptions `pinFiles`), whose blobs the
 * history pass reads ahead: every pin file once some pin carries a digest; none when
 * no pin does (there is nothing to look for, and a rendered bundle's every version is
 * megabytes).
 */
export const digestPinFiles = (pins: readonly Pin[]): string[] => (pins.some((p) => p.ref.digest !== undefined) ? [...new Set(pins.map((p) => p.file))] : []);

/** Per digest, the pin files of the images that carry it. */
function holdersOf(subjects: readonly Subject[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const s of subjects) {
    if (!s.digest) continue;
    const files = out.get(s.digest) ?? [];
    for (const p of s.pins) if (!files.includes(p.file)) files.push(p.file);
    out.set(s.digest, files);
  }
  return out;
}

export async function computeStale(repo: string, images: StaleImageInput[], options: StaleOptions = {}): Promise<StaleReport> {
  const headRev = options.head ?? 'HEAD';
  if (options.history && options.history.rev !== headRev) options.history.close();
  // a pass started before the scan counts here too (its walk and blob batch)
  const startProcesses = gitStats.processes - (options.history?.rev === headRev ? options.history.processes() : 0);
  // git walks while the rest is worked out (stale/repo.ts starts it even before the scan)
  const started = options.history && options.history.rev === headRev ? options.history : startHistory(repo, headRev);
  try {
    return await judgeHistory(repo, images, options, headRev, started, startProcesses);
  } finally {
    started.close();
  }
}

async function judgeHistory(repo: string, images: StaleImageInput[], options: StaleOptions, headRev: string, started: StartedHistory, startProcesses: number): Promise<StaleReport> {
  const timer = phaseTimer();
  const { commit: head, prefix } = await started.facts.head;
  if (!head) {
    const inRepo = (await runGit(repo, ['rev-parse', '--git-dir'])).code === 0;
    if (!inRepo) throw new PinwatchError('not-a-git-repo', `${repo} is not inside a git repository; stale reads history, so run it in a clone`);
    throw new PinwatchError('git-no-head', `revision "${headRev}" does not name a commit in ${repo} (an empty repository has none yet); expected a branch, tag or sha`);
  }
  const shallow = await started.facts.shallow;
  if (options.observed) Object.assign(options.observed, { shallow, prefix: prefix ?? '' });
  const pr = options.base === undefined ? undefined : await prCommits(repo, head, options.base);
  const subjects = subjectsOf(images);
  const methods = options.methods ?? ['registry', 'digest-history', 'tag-commit', 'tag-history', 'git-tag'];
  const ctx = {
    head,
    prefix: prefix ?? '',
    shallow,
    buildCommit: options.buildCommit ?? 'parent',
    ...(options.registry ? { registry: options.registry } : {}),
    ...(options.tagRules ? { tagRules: options.tagRules } : {}),
    ...(options.observed ? { observed: options.observed } : {}),
    // the tags listed beside the pass (or by a kept answer's check: window.ts startHistory), taken rather than asked again
    ...(started.facts.tags ? { tags: started.facts.tags } : {}),
  } as const;
  // every method but digest history, each step asked once
  const others = await provenanceSources(repo, subjects, methods.filter((m) => m !== 'digest-history'), ctx);
  const otherSteps = await Promise.all(subjects.map((s) => Promise.all(others.map((src) => src.resolve(s)))));
  const otherCommits = [...new Set(otherSteps.flat().flatMap((st) => (st.answered && st.commit ? [st.commit] : [])))];
  const present = await existingCommits(repo, otherCommits);
  // the releases a digest no recipe stamps may have been pinned after (provenance/release.ts): loaded with the builds, to be told apart by ancestry
  const releaseSource = shallow.shallow ? undefined : others.find((src) => src.releases);
  const releases = subjects.map((s) => (releaseSource && pinnedAfterBuild(s) ? releaseSource.releases!(s) : []));
  timer.lap('provenance-sources');
  const digests = new Set(subjects.flatMap((s) => (s.digest ? [s.digest] : [])));
  const files = [...new Set([...subjects.flatMap((s) => s.pins.map((p) => p.file)), ...(options.pinFiles ?? [])])].sort();
  const digestInput = (history: DigestHistoryResult) => ({ history, shallow, buildCommit: ctx.buildCommit, searchedFiles: files.length });
  const usesDigests = methods.includes('digest-history');
  /** Per subject, the steps in method order (digest history's from `history`). */
  const stepsOf = (history: DigestHistoryResult) =>
    subjects.map((s, i) => {
      let k = 0;
      return methods.map((m) => (m === 'digest-history' ? resolveFromHistory(s, digestInput(history)) : otherSteps[i]![k++]!));
    });
  const window = await readWindow(repo, head, started, {
    digests: usesDigests ? digests : new Set(),
    // no digest to look for: no pin file's blob is read (a rendered bundle's every version is megabytes)
    files: usesDigests && digests.size > 0 ? files : [],
    holders: holdersOf(subjects),
    ...(options.pinLike && usesDigests && digests.size > 0 ? { pinLike: options.pinLike } : {}),
    builds: (history, graph) => stepsOf(history).flatMap((steps, i) => {
      const chosen = steps.find((st) => st.answered && st.commit && (graph.has(st.commit) || present.has(st.commit) || st.method === 'digest-history'));
      if (!chosen?.commit) return [];
      return [present.get(chosen.commit) ?? chosen.commit, ...(chosen.method === 'digest-history' ? releases[i]!.map((r) => r.commit) : [])];
    }),
  }, options.windowStep);
  timer.lap('history');
  const graph = window.view.graph;
  const known = new Map(present);
  for (const n of graph.nodes) known.set(n.sha, n.sha);
  const all = stepsOf(window.history);
  const resolved = await resolveProvenance(repo, subjects, methods.map((method, k) => ({ method, resolve: async (image) => all[subjects.indexOf(image as Subject)]![k]! })), known);
  const provenance = resolved.map((p, i) => releaseBefore(subjects[i]!, p, releases[i]!.filter((r) => graph.has(r.commit)), (a, b) => graph.has(b) && graph.isAncestor(a, b)));
  timer.lap('provenance-resolve');
  const changed = changedPathsOf(window.view.commits);
  const judged = await judge(repo, graph, changed, head, subjects, provenance, timer);
  judged.forEach((j, i) => {
    if (j?.builtWithIntroducer) provenance[i] = withIntroducerBuild(provenance[i]!, j.builtWithIntroducer);
  });
  const now = options.now ?? new Date();
  const warnings = shallow.shallow ? ['the clone is shallow: history beyond its boundary is missing, so some images may be unknown or miss unshipped commits (fetch-depth: 0)'] : [];
  if (prefix) warnings.push(subdirectoryWarning(repo, prefix));
  // one process for the messages (trailers, fixPattern) of every unshipped commit, read while the owners are worked out
  const reading = readCommitMessages(repo, judged.flatMap((j) => (j ? j.unshipped.map((c) => graph.nodes[c.index]!.sha) : [])));
  reading.catch(() => undefined); // awaited below, after the owners
  const owners = judged.some((j) => j && j.unshipped.length > 0) ? firstParentOwners(graph, head) : new Int32Array(0);
  const messages = await reading;
  timer.lap('messages');
  const meta = { graph, owners, messages, ...(options.fixPattern ? { fixPattern: options.fixPattern } : {}) };
  const picksOf = new Map<StaleImage, PickFacts>();
  const judgedImages = subjects.map((s, i) => {
    const image = toImage(s, provenance[i]!, judged[i], meta, now);
    if (judged[i]?.picks) picksOf.set(image, judged[i]!.picks!);
    return image;
  });
  judgedImages.sort(byImage);
  // PR mode: the PR's own commits are its build's to ship, not unshipped merged work (the judgement before the split is what is kept)
  const out = pr ? judgedImages.map((image) => splitForPr(image, pr.own, now)) : judgedImages;
  if (options.observed) {
    options.observed.picks = judgedImages.map((image) => picksOf.get(image));
    if (pr) options.observed.unsplit = judgedImages;
  }
  timer.lap('describe');
  return {
    head,
    shallow: shallow.shallow,
    ...(pr ? { base: { rev: options.base!, commit: pr.commit, prCommits: pr.own.size } } : {}),
    images: out,
    warnings,
    gitProcesses: gitStats.processes - startProcesses,
    history: { commits: window.read, whole: !window.stopped },
    timings: timer.phases,
  };
}

/** The root is a subdirectory of the work tree: history is read through it only. */
export function subdirectoryWarning(repo: string, prefix: string): string {
  const top = prefix.replace(/\/$/, '').split('/').map(() => '..').join('/');
  return `${repo} is the subdirectory ${prefix} of its git work tree: only changes inside it count, so build inputs outside it (a build context of ${top} or above) are unknown and digests moved in from outside are dated by the move; take the top level of the work tree as the repository root to judge the whole tree`;
}

interface Judgement {
  unshipped: Candidate[];
  cherryPicked: { commit: string; equals: string }[];
  /** The digest's introducing commit changes the image's inputs itself: the image was built from it. */
  builtWithIntroducer?: { commit: string; paths: string[] };
  /** What a later run needs to judge only new commits (unshipped.ts PickFacts). */
  picks?: PickFacts;
}

/** Unshipped commits for every subject with a build commit and inputs, in three batched git passes. */
async function judge(repo: string, graph: CommitGraph, allChanged: Map<string, string[]>, head: string, subjects: Subject[], provenance: Provenance[], timer: PhaseTimer): Promise<(Judgement | undefined)[]> {
  const ready = subjects.map((s, i) => (provenance[i]!.commit && s.input.inputs && !s.input.inputs.unknownReason ? provenance[i]!.commit : undefined));
  const outside = new Map<string, Uint8Array>();
  for (const b of ready) if (b && !outside.has(b)) outside.set(b, outsideBuild(graph, head, b));
  const byTime = timeIndex(graph);
  // Where cherry-picks of outside commits could sit: fetched in the same changed-paths pass.
  const supersets = new Map<string, number[]>();
  for (const [b, bits] of outside) supersets.set(b, authoredSince(graph, b, oldestTime(bits, byTime), byTime));
  // only the commits outside a build and where their cherry-picks could sit (the window may hold more)
  const needed = new Uint8Array(graph.nodes.length);
  for (const bits of outside.values()) for (let i = 0; i < bits.length; i++) needed[i] |= bits[i]!;
  for (const list of supersets.values()) for (const i of list) needed[i] = 1;
  const changed = new Map<string, string[]>();
  for (let i = 0; i < needed.length; i++) if (needed[i]) changed.set(graph.nodes[i]!.sha, allChanged.get(graph.nodes[i]!.sha) ?? []);
  timer.lap('ancestry');
  const changedOf = (i: number) => changed.get(graph.nodes[i]!.sha) ?? [];
  const byPath = commitsByPath(graph, changed);
  // each build's superset as a bitmap: the commits of it that change an image's inputs are found beside its candidates
  // (pickFacts keeps their keys when it has none: partial.ts can then judge a new candidate authored before them)
  const supersetBits = new Map<string, Uint8Array>();
  for (const [b, list] of supersets) {
    const bits = new Uint8Array(graph.nodes.length);
    for (const i of list) bits[i] = 1;
    supersetBits.set(b, bits);
  }
  const touching = subjects.map((s, i) => {
    const b = ready[i];
    return b ? touchingInputsIn(byPath, [outside.get(b)!, supersetBits.get(b)!], inputMatcher(s.input.inputs!)) : undefined;
  });
  const candidates = touching.map((t) => t?.[0]);
  const pools = subjects.map((_, i) => (ready[i] ? cherryPickPool(supersets.get(ready[i]!)!, candidates[i]!, changedOf, byTime) : []));
  const forPatchId = plausiblePicks(graph, candidates, pools, changedOf);
  timer.lap('match-inputs');
  const ids = await patchIds(repo, [...forPatchId].map((i) => graph.nodes[i]!.sha));
  timer.lap('patch-id');
  const fromHead = graph.ancestors(head);
  const pickKeys: PickKeyMemo = new Map();
  return subjects.map((_, i) => {
    const list = candidates[i];
    if (!list) return undefined;
    const b = ready[i]!;
    const picks = pickFacts(graph, fromHead, b, outside.get(b)!, supersets.get(b)!, list, changedOf, byTime, pickKeys, touching[i]![1]);
    const poolIds = new Map<string, string>();
    for (const p of pools[i]!) {
      const id = ids.get(graph.nodes[p]!.sha);
      if (id) poolIds.set(id, graph.nodes[p]!.sha);
    }
    const unshipped: Candidate[] = [];
    const cherryPicked: Judgement['cherryPicked'] = [];
    const introducer = introducerOf(provenance[i]!);
    let builtWith: Judgement['builtWithIntroducer'];
    for (const c of list) {
      const sha = graph.nodes[c.index]!.sha;
      if (sha === introducer) {
        builtWith = { commit: sha, paths: c.paths };
        continue;
      }
      const equals = poolIds.get(ids.get(sha) ?? '');
      if (equals) cherryPicked.push({ commit: sha, equals });
      else unshipped.push(c);
    }
    // listed in newestFirst's order (as unshipped commits are), not the path index's, which new commits move
    const ordered = newestFirst(cherryPicked.map((p) => ({ ...p, date: graph.node(p.commit)!.date })), graph).map(({ commit, equals }) => ({ commit, equals }));
    return { unshipped, cherryPicked: ordered, ...(builtWith ? { builtWithIntroducer: builtWith } : {}), picks };
  });
}

/**
 * The commits worth a patch id: a candidate and a commit of its image's pool
 * that change the very same paths (a patch id hashes the file names, so no
 * other pair can be equal: the filter loses no cherry-pick) and share the
 * subject or the author date (what `git cherry-pick` and rebases keep), the
 * subject as a backport rewrites it (unshipped.ts subjectStem: argo-rollouts'
 * `… (cherry-pick #4814 for 1.9) (#4824)` for main's `… (#4814)`, its author
 * date moved too). A huge commit with no such partner is never diffed.
 */
export function plausiblePicks(graph: CommitGraph, candidates: (Candidate[] | undefined)[], pools: number[][], changedOf: (index: number) => string[]): Set<number> {
  const out = new Set<number>();
  const keys = new Map<number, string>();
  const keyOf = (i: number): string => {
    let k = keys.get(i);
    if (k === undefined) keys.set(i, (k = [...changedOf(i)].sort().join('\0')));
    return k;
  };
  const stems = new Map<number, string>();
  const stemOf = (i: number): string => {
    let s = stems.get(i);
    if (s === undefined) stems.set(i, (s = subjectStem(graph.nodes[i]!.subject)));
    return s;
  };
  pools.forEach((pool, i) => {
    if (pool.length === 0) return;
    const byKey = new Map<string, number[]>();
    for (const p of pool) {
      const k = keyOf(p);
      if (k === '') continue;
      const list = byKey.get(k);
      if (list) list.push(p);
      else byKey.set(k, [p]);
    }
    for (const c of candidates[i]!) {
      const node = graph.nodes[c.index]!;
      const partners = (byKey.get(keyOf(c.index)) ?? []).filter((p) => p !== c.index && (stemOf(p) === stemOf(c.index) || graph.nodes[p]!.date === node.date));
      if (partners.length === 0) continue;
      out.add(c.index);
      for (const p of partners) out.add(p);
    }
  });
  return out;
}

/** The report's order of images: by repository, digest and first tag (a stable sort: ties keep the subjects' order). */
const byImage = (a: Pick<StaleImage, 'repository' | 'digest' | 'tags'>, b: Pick<StaleImage, 'repository' | 'digest' | 'tags'>) => a.repository.localeCompare(b.repository) || (a.digest ?? '').localeCompare(b.digest ?? '') || (a.tags[0] ?? '').localeCompare(b.tags[0] ?? '');

/** What a subject's image says of where its pins are written and why its inputs are what they are (positions and words a judgement does not read). */
function shownOf(s: Subject): Pick<StaleImage, 'pins' | 'inputs'> {
  const inputs = s.input.inputs;
  return {
    pins: s.pins.map((pin) => ({ file: pin.file, line: pin.line, ...(pin.keyPath ? { keyPath: pin.keyPath } : {}) })),
    inputs: {
      count: inputs?.inputs.length ?? 0,
      patterns: inputs?.inputs ?? [],
      ignore: inputs?.ignore ?? [],
      steps: inputs?.steps ?? [],
      ...(inputs?.unknownReason ? { unknownReason: inputs.unknownReason } : {}),
    },
  };
}

/**
 * A kept judgement's images (`kept`, in the report's order) as computeStale
 * gives them for `images`, which differ from the images judged only where
 * things are written (partial.ts imagesHash: a pin's line, the recipe line an
 * input's reason names): each keeps its judgement and takes its pins and
 * inputs from `images`. Undefined when the two do not pair one to one (the
 * same image, repository, digest and tags at each place): then no kept
 * judgement is theirs.
 */
export function presentedAs(kept: readonly StaleImage[], images: readonly StaleImageInput[]): StaleImage[] | undefined {
  const shown = subjectsOf(images)
    .map((s) => ({ image: s.input.image, repository: s.repository, ...(s.digest ? { digest: s.digest } : {}), tags: s.tags, ...shownOf(s) }))
    .sort(byImage);
  if (shown.length !== kept.length) return undefined;
  const out: StaleImage[] = [];
  for (const [k, image] of kept.entries()) {
    const now = shown[k]!;
    if (now.image !== image.image || now.repository !== image.repository || (now.digest ?? '') !== (image.digest ?? '') || now.tags.join('\0') !== image.tags.join('\0')) return undefined;
    out.push({ ...image, pins: now.pins, inputs: now.inputs });
  }
  return out;
}

function toImage(s: Subject, p: Provenance, j: Judgement | undefined, meta: CommitMeta, now: Date): StaleImage {
  const { graph } = meta;
  const inputs = s.input.inputs;
  const base: StaleImage = {
    image: s.input.image,
    repository: s.repository,
    ...(s.digest ? { digest: s.digest } : {}),
    tags: s.tags,
    status: 'unknown',
    provenance: p.steps,
    unshipped: [],
    cherryPicked: [],
    ...shownOf(s),
  };
  if (p.commit && p.method) {
    const n = graph.node(p.commit);
    base.builtFrom = { commit: p.commit, method: p.method, ...(n ? { date: n.date, subject: n.subject } : {}) };
  }
  const reasons: string[] = [];
  if (!inputs) reasons.push(s.input.missingInputsReason ?? 'build inputs are unknown (no build recipe or config inputs for this image)');
  else if (inputs.unknownReason) reasons.push(`build inputs could not be derived: ${inputs.unknownReason}`);
  if (!p.commit) reasons.push(`no provenance method answered: ${p.reason}`);
  if (reasons.length > 0 || !j) return { ...base, reason: reasons.join('; ') || 'internal: no judgement' };
  const unshipped = newestFirst(j.unshipped.map((c) => describeCommit(meta, c)), graph);
  const oldest = oldestOf(unshipped, now);
  return {
    ...base,
    status: unshipped.length > 0 ? 'stale' : 'current',
    unshipped,
    cherryPicked: j.cherryPicked,
    ...(oldest ? { oldestUnshipped: oldest } : {}),
  };
}
