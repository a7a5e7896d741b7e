/**
 * `triageLog`: the repo-level entry of `pinwatch triage`. Scan → images, build
 * inputs and pinned builds (stale's machinery, or builds the caller passes) →
 * the literal index from HEAD's objects and one history pass → the engine.
 * Git processes are a constant number whatever the number of images, files or
 * log lines: stale's own passes, then one `ls-tree`, one `cat-file --batch`,
 * one first-parent `log -p`, one commit-graph read, one changed-paths read and
 * one `log --no-walk -p` for the texts of the lacking commits that matter.
 */
import type { Config } from '../config/types.js';
import { PinwatchError } from '../errors.js';
import { readChangedPaths } from '../git/changed-paths.js';
import { readCommitGraph, type CommitGraph } from '../git/graph.js';
import { COMMIT_FORMAT, malformed, newNonce, nonceRecords } from '../git/log-parse.js';
import { existingCommits, readBlobs, resolveCommit } from '../git/objects.js';
import { git, gitStats } from '../git/run.js';
import { inputMatcher } from '../sources/matcher.js';
import { staleReport, type StaleReportResult } from '../stale/index.js';
import type { StaleImage } from '../stale/types.js';
import { prNumber } from '../stale/commit-meta.js';
import { buildLiteralIndex, commitsToRead, DEFAULT_MIN_CONSTANT, judgeLog, matchLog, type LiteralIndex, type LogLine, type SourceFile } from './engine.js';
import { parseLiteralLog } from './history.js';
import { languageOf } from './literals.js';
import type { ImageBuild, LackingCommit, TriageImage, TriageReport } from './types.js';
import type { RunningReport } from '../running/types.js';
import { runningImageBuilds, type RunningBuild } from './running.js';
import { nowMs } from '../util/clock.js';

/** Files larger than this are not read for literals (generated code, bundles); they are counted in the report. */
export const MAX_SOURCE_BYTES = 2 * 1024 * 1024;
/** Per lacking commit, this much of its body and patch is searched for mentions. */
const MAX_COMMIT_TEXT = 512 * 1024;
/** The history pass reads only the languages pinwatch extracts literals from. */
const SOURCE_PATHSPECS = ['go', 'py', 'sh', 'bash', 'ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'].map((e) => `:(glob)**/*.${e}`);

export interface TriageOptions {
  /** Constant characters a literal needs to be indexed (default 12). */
  minConstant?: number;
  /** Start of the history window: a revision (exclusive) or a date; default the oldest build commit. */
  since?: string;
  /** Builds by image name or repository, instead of the pinned ones. */
  builds?: Map<string, ImageBuild>;
  /** What a pod list runs (`--pods`: `runningBuilds`'s report): its builds replace the pins'; an image no container runs, or runs at an unknown build, is unknown. */
  running?: Pick<RunningReport, 'containers'>;
  now?: Date;
}

function timer(): { lap: (name: string) => void; phases: Record<string, number> } {
  const phases: Record<string, number> = {};
  let t = nowMs();
  return {
    phases,
    lap(name) {
      const n = nowMs();
      phases[name] = Math.round(n - t);
      t = n;
    },
  };
}

/** `git ls-tree -r -z -l HEAD`: `<mode> <type> <sha> <size>\t<path>` records. */
export function parseLsTree(stdout: string): { sha: string; size: number; path: string }[] {
  if (stdout === '') return [];
  const out: { sha: string; size: number; path: string }[] = [];
  for (const rec of stdout.split('\0')) {
    if (rec === '') continue;
    const tab = rec.indexOf('\t');
    const m = /^\d+ (\w+) ([0-9a-f]{40,64}) +(-|\d+)$/.exec(rec.slice(0, tab));
    if (tab < 0 || !m) throw malformed('ls-tree record', rec);
    if (m[1] !== 'blob') continue;
    out.push({ sha: m[2]!, size: m[3] === '-' ? 0 : Number(m[3]), path: rec.slice(tab + 1) });
  }
  return out;
}

/** `log --no-walk -p --format=<nonce>%H%x00%B%x00`: sha → subject, body and patch (cut at MAX_COMMIT_TEXT). */
export function parseCommitTexts(stdout: string, nonce: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of nonceRecords(stdout, nonce)) {
    const nul = r.indexOf('\0');
    if (nul < 0) throw malformed('commit sha', r);
    out.set(r.slice(0, nul), r.slice(nul + 1, nul + 1 + MAX_COMMIT_TEXT));
  }
  return out;
}

/**
 * The builds one stale image is judged at: the pinned one by default; the one
 * the caller gives (`builds`, by image name or repository); or, with a pod
 * list (`running`), every distinct build its containers run plus one unknown
 * entry per reason some container has no build.
 */
function wantedBuilds(s: StaleImage, builds: Map<string, ImageBuild> | undefined, running: Map<string, RunningBuild[]> | undefined): RunningBuild[] | undefined {
  if (running) return running.get(s.repository) ?? [{ reason: 'no container of the pod list runs it', runningIn: [] }];
  if (!builds) return undefined;
  const given = builds.get(s.image) ?? builds.get(s.repository);
  return [given ? { build: given, runningIn: [] } : { reason: 'no running build was given for it', runningIn: [] }];
}

/**
 * Commits a given build lacks: on HEAD's history, not on the build's, non-merge
 * (stale's pinned builds come with their own list, cherry-picks already told apart).
 */
function outsideOf(graph: CommitGraph, head: string, build: string): string[] {
  const fromHead = graph.ancestors(head);
  const fromBuild = graph.ancestors(build);
  const out: string[] = [];
  for (let i = 0; i < graph.nodes.length; i++) if (fromHead[i] && !fromBuild[i] && graph.nodes[i]!.parentShas.length < 2) out.push(graph.nodes[i]!.sha);
  return out;
}

function triageImages(stale: StaleReportResult, graph: CommitGraph, builds: Map<string, ImageBuild> | undefined, running: Map<string, RunningBuild[]> | undefined, changed: Map<string, string[]>): TriageImage[] {
  // one entry per repository when the builds are not the pins' (an image pinned at two digests runs what the pods say)
  const knownPr = new Map<string, number>();
  for (const i of stale.images) for (const u of i.unshipped) if (u.pr !== undefined) knownPr.set(u.commit, u.pr);
  const seen = new Set<string>();
  const list = builds || running ? stale.images.filter((s) => !seen.has(s.repository) && seen.add(s.repository)) : stale.images;
  return list.flatMap((s: StaleImage) => {
    const inputs = { image: s.image, inputs: s.inputs.patterns, ignore: s.inputs.ignore, steps: [] };
    const matcher = s.inputs.unknownReason || s.inputs.count === 0 ? undefined : inputMatcher(inputs);
    const contains = (path: string) => matcher?.match(path) !== undefined;
    const pinned = s.builtFrom ? { commit: s.builtFrom.commit, method: s.builtFrom.method } : undefined;
    const wanted = wantedBuilds(s, builds, running);
    const pinnedBase = { name: s.image, repository: s.repository, ...(s.digest ? { digest: s.digest } : {}), contains, buildSource: 'pinned' as const };
    const choices: { base: Omit<TriageImage, 'lacks'>; build?: ImageBuild; reason?: string }[] = wanted
      ? wanted.map((w) => ({
          base: { name: s.image, repository: s.repository, contains, buildSource: 'running' as const, ...(running ? { runningIn: w.runningIn } : {}) },
          ...(w.build ? { build: w.build } : {}),
          ...(w.reason ? { reason: w.reason } : {}),
        }))
      : [{ base: pinnedBase, ...(pinned ? { build: pinned } : {}), reason: s.reason ?? 'no provenance method answered' }];
    return choices.map(({ base, build, reason }): TriageImage => {
      if (!build) return { ...base, unknownReason: reason ?? 'no provenance method answered', lacks: [] };
      if (wanted && !graph.has(build.commit)) return { ...base, unknownReason: `its build commit ${build.commit} is not in this repository's history (fetch it, or full history)`, lacks: [] };
      if (!matcher) return { ...base, build, unknownReason: s.inputs.unknownReason ?? 'build inputs unknown', lacks: [] };
      const samePinned = pinned !== undefined && pinned.commit === build.commit;
      const lacks: LackingCommit[] = samePinned
        ? s.unshipped.map((u) => ({ commit: u.commit, date: u.date, subject: u.subject, ...(u.pr !== undefined ? { pr: u.pr } : {}), paths: changed.get(u.commit) ?? u.paths }))
        : outsideOf(graph, stale.head, build.commit).flatMap((sha) => {
            const paths = changed.get(sha) ?? [];
            if (!paths.some(contains)) return [];
            const n = graph.node(sha)!;
            // the PR stale found (from the merge that brought the commit in), else the subject's
            const pr = knownPr.get(sha) ?? prNumber(n.subject);
            return [{ commit: sha, date: n.date, subject: n.subject, ...(pr !== undefined ? { pr } : {}), paths }];
          });
      return { ...base, build, lacks };
    });
  });
}

/** The history window's lower bound: `--since` (a revision, else a date), or the oldest build commit judged. */
async function windowArgs(repo: string, since: string | undefined, graph: CommitGraph, builds: readonly string[]): Promise<{ args: string[]; label: string }> {
  if (since !== undefined) {
    const commit = await resolveCommit(repo, since);
    if (commit) return { args: [`^${commit}`], label: commit };
    if (Number.isNaN(Date.parse(since)) && !/^\d+\.(?:days?|weeks?|months?|years?)(?:\.ago)?$/.test(since)) {
      throw new PinwatchError('invalid-since', `--since must be a revision or a date, like --since v1.6.0 or --since 2026-07-01; "${since}" is neither`);
    }
    return { args: [`--since=${since}`], label: since };
  }
  const dated = [...new Set(builds)].flatMap((c) => {
    const n = graph.node(c);
    return n ? [{ commit: c, t: Date.parse(n.date) }] : [];
  });
  if (dated.length === 0) return { args: [], label: 'the root (no build commit known)' };
  const oldest = dated.reduce((a, b) => (b.t < a.t ? b : a));
  return { args: [`^${oldest.commit}`], label: oldest.commit };
}

/** Read the log into lines: `inputs` are [source name, text] pairs. */
export function logLines(inputs: readonly [string, string][]): LogLine[] {
  const out: LogLine[] = [];
  for (const [source, text] of inputs) {
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    lines.forEach((t, i) => out.push({ source, lineNumber: i + 1, text: t.replace(/\r$/, '') }));
  }
  return out;
}

/** The literal index of HEAD and its history window (no log needed): what bench/ times. */
export async function readLiteralIndex(repo: string, head: string, images: readonly TriageImage[], window: string[], minConstant = DEFAULT_MIN_CONSTANT): Promise<{ index: LiteralIndex; skipped: number; commits: number; others: Map<string, number> }> {
  const keep = (path: string) => languageOf(path) !== undefined && images.some((i) => i.contains(path));
  const tree = parseLsTree(await git(repo, ['ls-tree', '-r', '-z', '-l', head]));
  const wanted = tree.filter((f) => keep(f.path));
  // build inputs in languages no reader knows (YAML, patches, …): counted by extension, for the notes
  const others = new Map<string, number>();
  for (const f of tree) {
    if (languageOf(f.path) !== undefined || !images.some((i) => i.contains(f.path))) continue;
    const base = f.path.slice(f.path.lastIndexOf('/') + 1);
    const ext = base.includes('.') ? base.slice(base.lastIndexOf('.')) : base;
    others.set(ext, (others.get(ext) ?? 0) + 1);
  }
  const small = wanted.filter((f) => f.size <= MAX_SOURCE_BYTES);
  const blobs = await readBlobs(repo, small.map((f) => f.sha));
  const files: SourceFile[] = small.flatMap((f) => {
    const text = blobs.get(f.sha);
    return text === undefined ? [] : [{ path: f.path, text }];
  });
  const nonce = newNonce();
  const log = await git(repo, [
    'log', '--first-parent', '--diff-merges=first-parent', '-p', '--relative', '--unified=0', '--inter-hunk-context=0', '--no-color', '--no-ext-diff', '--no-textconv',
    '--no-renames', '--no-show-signature', '--src-prefix=a/', '--dst-prefix=b/', `--format=${nonce}${COMMIT_FORMAT}`, head, ...window, '--', ...SOURCE_PATHSPECS,
  ]);
  const history = parseLiteralLog(log, nonce, keep, minConstant);
  return { index: buildLiteralIndex(files, history, minConstant), skipped: wanted.length - small.length, commits: history.length, others };
}

/** Triage log lines against the repository at `repoRoot`. */
export async function triageLog(repoRoot: string, config: Config, lines: readonly LogLine[], opts: TriageOptions = {}): Promise<TriageReport> {
  const start = gitStats.processes;
  const t = timer();
  const minConstant = opts.minConstant ?? DEFAULT_MIN_CONSTANT;
  const stale = await staleReport(repoRoot, config, { ...(opts.now ? { now: opts.now } : {}) });
  t.lap('stale');
  const pinnedBuilds = stale.images.flatMap((i) => (i.builtFrom ? [i.builtFrom.commit] : []));
  const running = opts.running ? runningImageBuilds(opts.running) : undefined;
  const runningCommits = running ? [...running.values()].flatMap((l) => l.flatMap((b) => (b.build ? [b.build.commit] : []))) : [];
  const given = [...(opts.builds ? [...opts.builds.values()].map((b) => b.commit) : []), ...runningCommits];
  const present = given.length > 0 ? await existingCommits(repoRoot, given) : new Map<string, string>();
  const full = (b: ImageBuild) => ({ ...b, commit: present.get(b.commit) ?? b.commit });
  const builds = opts.builds ? new Map([...opts.builds].map(([k, b]) => [k, full(b)])) : undefined;
  if (running) for (const l of running.values()) for (const b of l) if (b.build) b.build = full(b.build);
  const graph = await readCommitGraph(repoRoot, [stale.head, ...new Set([...pinnedBuilds, ...present.values()])]);
  const unshipped = new Set(stale.images.flatMap((i) => i.unshipped.map((u) => u.commit)));
  // every given build, even one that is also some image's pinned build: that image's unshipped list holds only commits to its own inputs
  for (const b of new Set(present.values())) for (const c of outsideOf(graph, stale.head, b)) unshipped.add(c);
  const changed = await readChangedPaths(repoRoot, [...unshipped]);
  const images = triageImages(stale, graph, builds, running, changed);
  // from the oldest build judged or pinned: a message the running builds already lost is still named
  const window = await windowArgs(repoRoot, opts.since, graph, [...pinnedBuilds, ...images.flatMap((i) => (i.build ? [i.build.commit] : []))]);
  t.lap('images');
  const { index, skipped, commits, others } = await readLiteralIndex(repoRoot, stale.head, images, window.args, minConstant);
  t.lap('index');
  const matched = matchLog(index, lines);
  t.lap('match');
  const toRead = commitsToRead(matched.filter((m) => m.hits.length > 0), images);
  const nonce = newNonce();
  const texts = toRead.length === 0 ? new Map<string, string>() : parseCommitTexts(
    await git(repoRoot, ['log', '--no-walk=unsorted', '--stdin', '-p', '--unified=0', '--no-color', '--no-ext-diff', '--no-textconv', '--no-show-signature', `--format=${nonce}%H%x00%B%x00`], { input: `${toRead.join('\n')}\n` }),
    nonce,
  );
  t.lap('commits');
  const judged = judgeLog(matched, images, graph, (c) => texts.get(c));
  for (const l of judged.lines) for (const m of l.matches) if (!m.introduced && window.args.length > 0) m.introducedBefore = window.label;
  t.lap('judge');
  const count = (v: string) => judged.lines.filter((l) => l.verdict === v).length;
  const notes = [...stale.warnings, ...stale.notes];
  if (skipped > 0) notes.push(`${skipped} source file(s) over ${MAX_SOURCE_BYTES / 1024 / 1024} MiB in the build inputs were not read for literals`);
  if (others.size > 0) {
    const list = [...others].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const total = list.reduce((n, [, c]) => n + c, 0);
    const shown = list.slice(0, 6).map(([e, c]) => `${c} ${e}`).join(', ');
    notes.push(`${total} build-input file(s) are in languages pinwatch reads no literals from (${shown}${list.length > 6 ? ', …' : ''}): a message only they hold matches nothing`);
  }
  const noInputs = stale.images.filter((i) => i.inputs.unknownReason || i.inputs.count === 0);
  for (const i of noInputs) notes.push(`${i.image}: build inputs unknown, so its literals are not indexed: ${i.inputs.unknownReason ?? 'no inputs'}`);
  return {
    head: stale.head,
    window: { since: window.label, commits },
    index: { files: index.files, literals: index.entries.length, removed: index.removed, skippedFiles: skipped },
    summary: {
      lines: lines.length,
      matched: matched.filter((m) => m.hits.length > 0).length,
      skew: count('skew'),
      noSkew: count('no-skew'),
      unknown: count('unknown'),
      unlisted: judged.unlisted,
    },
    lines: judged.lines,
    notes,
    gitProcesses: gitStats.processes - start,
    timings: t.phases,
  };
}
