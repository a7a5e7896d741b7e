/**
 * What a commit says about itself: PR number, Conventional Commits type, and
 * whether it is a fix for the `--fail-on-stale fix` policy (its type, a trailer,
 * or `stale.fixPattern`). The "Area: subject" style (`Images: bump …`) is not a type.
 * `describeCommit` puts them together for one unshipped commit (history.ts and
 * partial.ts describe with it).
 */
import type { CommitGraph } from '../git/graph.js';
import type { CommitMessage } from '../git/messages.js';
import type { UnshippedCommit } from './types.js';
import type { Candidate } from './unshipped.js';

const PR_IN_SUBJECT = /\(#(\d+)\)/g;
const MERGE_PR = /^Merge pull request #(\d+)\b/;
const CONVENTIONAL = /^([A-Za-z]+)(?:\([^)]*\))?!?:\s/;

/**
 * Conventional Commits types (the conventional-changelog set, plus `deps`,
 * `security`, `hotfix`, `bugfix`). Any other `Word:` prefix is an area
 * (`Images: bump …`, `kubevirt: …`), not a type.
 */
export const COMMIT_TYPES: ReadonlySet<string> = new Set(['build', 'chore', 'ci', 'docs', 'feat', 'fix', 'perf', 'refactor', 'revert', 'style', 'test', 'deps', 'security', 'hotfix', 'bugfix']);

/** Types that are fixes. */
export const FIX_TYPES: ReadonlySet<string> = new Set(['fix', 'hotfix', 'bugfix']);

/** Trailer keys that say a commit fixes something (`Fixes: #12`, `Fixes: <sha> ("subject")`), case-insensitive. */
export const FIX_TRAILERS: ReadonlySet<string> = new Set(['fixes', 'fixed', 'fix', 'closes-bug']);
/** Trailer keys that name a change type (`Changelog: fixed`, GitLab; `Change-Type: fix`), and the values that mean a fix. */
const TYPE_TRAILERS: ReadonlySet<string> = new Set(['changelog', 'change-type', 'commit-type', 'type']);
const FIX_VALUES: ReadonlySet<string> = new Set(['fix', 'fixed', 'bugfix', 'hotfix']);

/** `fix(x): y (#12)` → 12; `Merge pull request #12 from …` → 12; the last `(#n)` wins. */
export function prNumber(subject: string): number | undefined {
  const merge = MERGE_PR.exec(subject);
  if (merge) return Number(merge[1]);
  let last: string | undefined;
  for (const m of subject.matchAll(PR_IN_SUBJECT)) last = m[1];
  return last === undefined ? undefined : Number(last);
}

/** `fix(scope)!: x` → `fix`; an area prefix (`Images: bump`) or none → undefined. */
export function conventionalType(subject: string): string | undefined {
  const m = CONVENTIONAL.exec(subject);
  const type = m?.[1]!.toLowerCase();
  return type !== undefined && COMMIT_TYPES.has(type) ? type : undefined;
}

/**
 * Why the commit counts as a fix, or undefined: its type (`type fix`), a trailer
 * (`trailer Fixes: #12`), or the configured pattern matching its message
 * (`stale.fixPattern`; the subject alone when the message was not read).
 */
export function fixReason(subject: string, message?: CommitMessage, fixPattern?: RegExp): string | undefined {
  const type = conventionalType(subject);
  if (type !== undefined && FIX_TYPES.has(type)) return `type ${type}`;
  for (const t of message?.trailers ?? []) {
    const key = t.key.toLowerCase();
    if (FIX_TRAILERS.has(key) || (TYPE_TRAILERS.has(key) && FIX_VALUES.has(t.value.toLowerCase()))) return `trailer ${t.key}: ${t.value.slice(0, 60)}`;
  }
  if (fixPattern && fixPattern.test(message?.message ?? subject)) return `stale.fixPattern ${fixPattern.source.slice(0, 60)}`;
  return undefined;
}

/** What describing a commit reads: the graph, first-parent owners (PR merges), messages and the fix pattern. */
export interface CommitMeta {
  graph: CommitGraph;
  owners: Int32Array;
  messages: Map<string, CommitMessage>;
  fixPattern?: RegExp;
}

export function describeCommit({ graph, owners, messages, fixPattern }: CommitMeta, c: Candidate): UnshippedCommit {
  const node = graph.nodes[c.index]!;
  const owner = owners[c.index]!;
  const ownerNode = owner >= 0 && owner !== c.index ? graph.nodes[owner] : undefined;
  const pr = prNumber(node.subject) ?? (ownerNode && ownerNode.parentShas.length > 1 ? prNumber(ownerNode.subject) : undefined);
  const type = conventionalType(node.subject);
  const fix = fixReason(node.subject, messages.get(node.sha), fixPattern);
  return { commit: node.sha, date: node.date, subject: node.subject, ...(pr !== undefined ? { pr } : {}), ...(type ? { type } : {}), ...(fix ? { fix } : {}), paths: c.paths.slice(0, 5) };
}
