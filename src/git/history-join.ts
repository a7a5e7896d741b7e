/**
 * The raw pass from kept commit records: a warm run asks git for the raw
 * entries of the commits it does not know yet (`git log --raw <rev> --not
 * <kept tip>`) and for the walk itself without any diff (`git log
 * --format=%H%x00%P%x00`: the same commits in the same order as the raw pass, at a
 * fraction of git's cost, and ~80 bytes a commit to parse), and joins them: each
 * commit of the walk comes from the new records or from the kept ones (facts of an
 * immutable commit id, checked against the walk's parents, so a shallow boundary
 * that moved is never joined wrongly; a graft or a replace ref, which could show
 * other content under the same id, rules joining out altogether:
 * `historyRewriters`). A commit the records do
 * not hold — the walk went further back than any run before, or a kept record
 * disagrees — switches to a plain raw pass from the start (one more process,
 * its first commits checked against those already handed out). Same interface
 * and order as HistoryStream, so the window's stop rules apply unchanged; like
 * the raw pass (which parses whole chunks), `grow` may hand back a different
 * count than asked: once early where the last run's walk stopped and once at
 * the end of the kept records, so the window checks there before reading on.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PinwatchError } from '../errors.js';
import { HistoryStream, type CommitStream, type HistoryCommit, type WalkEntry } from './history.js';
import { commonGitDir } from './remote.js';

/**
 * Why kept records cannot be trusted in the repository holding `root`, or
 * undefined when they can: replace refs or grafts make `git log` show other
 * trees (and so other raw entries, for a commit and for its children) under the
 * same commit ids, which no header check can see, so with any of them present
 * records are neither joined nor kept. Read from the files git keeps them in
 * (no process): loose and packed `refs/replace/`, `info/grafts`, a reftable
 * (unreadable without git, so untrusted), and the environment variables that
 * move them (GIT_REPLACE_REF_BASE, GIT_DIR, GIT_COMMON_DIR, GIT_GRAFT_FILE).
 */
export function historyRewriters(root: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const name of ['GIT_REPLACE_REF_BASE', 'GIT_DIR', 'GIT_COMMON_DIR', 'GIT_GRAFT_FILE']) if (env[name]) return `${name} is set`;
  let dir = resolve(root);
  let common = commonGitDir(dir);
  while (!common && dirname(dir) !== dir) common = commonGitDir((dir = dirname(dir)));
  if (!common) return 'no git dir found above the root';
  try {
    if (existsSync(join(common, 'reftable'))) return 'its refs are in a reftable';
    if (existsSync(join(common, 'info', 'grafts'))) return 'it has info/grafts';
    const loose = join(common, 'refs', 'replace');
    if (existsSync(loose) && readdirSync(loose).length > 0) return 'it has replace refs';
    const packed = join(common, 'packed-refs');
    if (existsSync(packed) && readFileSync(packed, 'utf8').includes(' refs/replace/')) return 'it has replace refs';
  } catch (e) {
    return `its refs could not be read (${e instanceof Error ? e.message : String(e)})`;
  }
  return undefined;
}

/** Commits of the walk joined per check (the header pass streams ahead). */
const BATCH = 1024;

/**
 * A record is the walk's commit when its parents are the walk's: its id names
 * immutable content (tree, dates, subject), and without replace refs or grafts
 * (historyRewriters: records are never joined under them) only a shallow
 * boundary, which cuts a commit's parents, can make git show it otherwise.
 */
const sameCommit = (record: HistoryCommit, walked: WalkEntry) =>
  record.sha === walked.sha && record.parentShas.length === walked.parentShas.length && record.parentShas.every((p, i) => p === walked.parentShas[i]);

export interface JoinStats {
  /** Commits handed out from kept records, and from the new raw pass. */
  kept: number;
  fresh: number;
  /** Why the join fell back to a plain raw pass, when it did. */
  fellBack?: string;
}

export class JoinedHistory implements CommitStream {
  readonly commits: HistoryCommit[] = [];
  ended = false;
  stopped = false;
  failed = false;
  readonly stats: JoinStats = { kept: 0, fresh: 0 };
  private readonly walk: HistoryStream<WalkEntry>;
  private readonly fresh: HistoryStream;
  private fallback: HistoryStream | undefined;
  private freshIndex: Map<string, HistoryCommit> | undefined;
  /** Where `grow` hands back early once: the last run's walk length (plus the new commits), and the end of the kept records. */
  private pauses = new Set<number>();
  private exhausted = false;

  /**
   * `kept`: records by commit id; `tip`: the newest commit they were read from (what the new pass excludes);
   * `lastRead`: how far the run that kept them walked (the window is asked to check there first, as it stopped there then).
   */
  constructor(private readonly repo: string, private readonly rev: string, private readonly kept: ReadonlyMap<string, HistoryCommit>, tip: string, private readonly lastRead = 0) {
    this.walk = HistoryStream.walk(repo, [rev]);
    this.fresh = HistoryStream.start(repo, [rev], [tip]);
  }

  processes(): number {
    return 2 + (this.fallback ? 1 : 0);
  }

  /**
   * Where the last run's walk stopped, counted in this walk (its length plus the
   * commits no run has read), once the new commits are read; undefined without
   * a kept length or after a fall-back. The window checks there first: checks
   * before it would read what the last run already found insufficient.
   */
  async resumeAt(): Promise<number | undefined> {
    if (this.lastRead <= 0) return undefined;
    await this.grow(1);
    return this.fallback || !this.freshIndex ? undefined : this.lastRead + this.freshIndex.size;
  }

  async grow(count: number): Promise<void> {
    try {
      while (!this.ended && this.commits.length < count) {
        if (this.fallback) {
          await this.fallback.grow(count);
          this.commits.push(...this.fallback.commits.slice(this.commits.length, count));
          if (this.fallback.ended && this.commits.length === this.fallback.commits.length) this.end();
          continue;
        }
        if (!this.freshIndex) {
          // the commits no run has read: few after one new commit (the walk's headers stream meanwhile)
          try {
            this.freshIndex = new Map((await this.fresh.all()).map((c) => [c.sha, c]));
            if (this.lastRead > 0) this.pauses.add(this.lastRead + this.freshIndex.size);
          } catch (e) {
            // the kept tip is gone (history rewritten and collected) or git failed: read plainly
            await this.fallBack(`the new commits could not be read against the kept tip (${e instanceof Error ? e.message : String(e)})`);
            continue;
          }
        }
        // join as far as asked (batched when everything is asked), handing back early at a pause
        let want = count === Infinity ? this.commits.length + BATCH : count;
        const pause = [...this.pauses].find((p) => p > this.commits.length && p < want);
        if (pause !== undefined) want = pause;
        await this.walk.grow(want);
        const upto = Math.min(want, this.walk.commits.length);
        let early = pause !== undefined;
        for (let i = this.commits.length; i < upto; i++) {
          const header = this.walk.commits[i]!;
          const fresh = this.freshIndex.get(header.sha);
          const kept = fresh ? undefined : this.kept.get(header.sha);
          const record = fresh ?? kept;
          if (!record && !this.exhausted && i > 0) {
            // the end of the kept records: the caller checks here first (where the raw pass of the last run was stopped)
            this.exhausted = true;
            early = true;
            break;
          }
          if (!record || !sameCommit(record, header)) {
            await this.fallBack(record ? `the kept record of ${header.sha} has other parents than the walk (a shallow boundary that moved)` : `the walk reached ${header.sha}, older than any kept record`);
            break;
          }
          this.commits.push(record);
          if (fresh) this.stats.fresh++;
          else this.stats.kept++;
        }
        if (!this.fallback && this.walk.ended && this.commits.length === this.walk.commits.length) this.end();
        if (early) {
          if (pause !== undefined) this.pauses.delete(pause);
          break;
        }
      }
    } catch (e) {
      this.failed = true;
      throw e;
    }
  }

  async all(): Promise<HistoryCommit[]> {
    while (!this.ended) await this.grow(Infinity);
    return this.commits;
  }

  stop(): void {
    if (this.ended) return;
    this.stopped = true;
    this.end();
  }

  private end(): void {
    this.ended = true;
    this.walk.stop();
    this.fresh.stop();
    this.fallback?.stop();
  }

  /** Switch to a plain raw pass from the start; the commits already handed out must be its first ones. */
  private async fallBack(why: string): Promise<void> {
    this.stats.fellBack = why;
    this.walk.stop();
    this.fresh.stop();
    this.fallback = HistoryStream.start(this.repo, [this.rev]);
    const given = this.commits.length;
    await this.fallback.grow(given);
    for (let i = 0; i < given; i++) {
      if (this.fallback.commits[i]?.sha !== this.commits[i]!.sha) {
        throw new PinwatchError('git-failed', `internal: the joined history and git's raw pass disagree at commit ${i} (${this.commits[i]!.sha}); run with --no-cache and report it`);
      }
    }
  }
}
