/**
 * The pure core of `running`: which image each container is (running repository
 * → first-party image through `firstParty` and `aliases`), and, given the build
 * commit of every running and pinned digest (one stale history pass) and commit
 * ancestry, each container's status against the pin and HEAD, what it lacks, and
 * which workloads run one container at several digests (half-finished rollouts).
 */
import { canonicalRepository } from '../config/aliases.js';
import { isFirstParty } from '../model/pin.js';
import { tryParseReference } from '../reference/index.js';
import type { StaleImage, UnshippedCommit } from '../stale/types.js';
import { parseImageID } from './pods.js';
import type { LackedCommit, PodContainer, Rollout, RunningContainer } from './types.js';

export interface IdentifyContext {
  firstParty: readonly string[];
  aliases: Readonly<Record<string, string>>;
  /** Short name of each first-party repository pinned in the tree. */
  pinnedImages: ReadonlyMap<string, string>;
}

/** Repository, first-party image and running digest of one container (status `unknown` until judged). */
export function identify(c: PodContainer, ctx: IdentifyContext): RunningContainer {
  const base: RunningContainer = { ...c, firstParty: false, status: 'unknown', lacks: [], lacksVsPin: [] };
  const fromId = c.imageID ? parseImageID(c.imageID) : undefined;
  const idRepo = fromId && 'repository' in fromId ? tryParseReference(fromId.repository)?.name : undefined;
  const specRepo = tryParseReference(c.image)?.name;
  const repository = idRepo ?? specRepo;
  if (repository) base.repository = repository;
  const canonical = repository ? canonicalRepository(repository, ctx.aliases) : undefined;
  if (canonical && isFirstParty(canonical, ctx.firstParty)) {
    base.firstParty = true;
    base.canonical = canonical;
    const name = ctx.pinnedImages.get(canonical);
    if (name) base.imageName = name;
  }
  if (fromId && 'digest' in fromId) base.runningDigest = fromId.digest;
  if (!repository) base.reason = `the image ${JSON.stringify(c.image)} is not a valid reference`;
  else if (!c.imageID) base.reason = `no running image yet: ${c.waiting ?? 'no imageID'}`;
  else if (fromId && 'problem' in fromId) base.reason = fromId.problem;
  else if (!base.firstParty) base.reason = 'third-party image (not under firstParty or an alias of it)';
  else if (!base.imageName) base.reason = `${canonical} is first-party but no pin of it is in the tree, so there is no history to find its build in`;
  return base;
}

/** What judging needs per image: its pinned digests, and the stale answer for each (repository, digest). */
export interface JudgeContext {
  /** Pinned digests (at HEAD) per canonical repository. */
  pinned: ReadonlyMap<string, string[]>;
  /** The stale engine's image per `repository\0digest`. */
  history: ReadonlyMap<string, StaleImage>;
  /** Is `a` an ancestor of (or equal to) `b`? */
  isAncestor: (a: string, b: string) => boolean;
  /** Said when a running digest is in no history and no registry was asked. */
  registryAsked: boolean;
  /** Judgements per (repository, running digest), shared by every container that runs it (5,000 pods, a few hundred digests). */
  memo?: Map<string, Omit<RunningContainer, keyof PodContainer>>;
}

export const historyKey = (repository: string, digest: string) => `${repository}\0${digest}`;

const lacked = (u: UnshippedCommit): LackedCommit => ({ commit: u.commit, subject: u.subject, date: u.date, ...(u.pr !== undefined ? { pr: u.pr } : {}), ...(u.type ? { type: u.type } : {}) });

/** The status of one identified first-party container against its pin and HEAD. */
export function judge(c: RunningContainer, ctx: JudgeContext): RunningContainer {
  if (!c.firstParty || !c.imageName || !c.runningDigest || !c.canonical || c.reason) return c;
  const key = historyKey(c.canonical, c.runningDigest);
  const known = ctx.memo?.get(key);
  if (known) return { ...c, ...known, ...(c.platform ? { platform: c.platform } : {}) };
  const out = judgeOne(c, ctx);
  const { namespace, pod, container, init, image, imageID, waiting, workload, source, ...judged } = out;
  void [namespace, pod, container, init, image, imageID, waiting, workload, source];
  ctx.memo?.set(key, judged);
  return out;
}

/** `c` has a canonical repository and a running digest (checked by judge). */
function judgeOne(c: RunningContainer, ctx: JudgeContext): RunningContainer {
  const out: RunningContainer = { ...c };
  const canonical = c.canonical!;
  const digest = c.runningDigest!;
  const pinnedDigests = ctx.pinned.get(canonical) ?? [];
  const pinStale = pinnedDigests.map((d) => ctx.history.get(historyKey(canonical, d))).filter((s): s is StaleImage => s !== undefined);
  const pin = newestPin(pinStale, ctx);
  if (pin?.digest) {
    out.pinned = {
      digest: pin.digest,
      ...(pin.builtFrom ? { builtFrom: { commit: pin.builtFrom.commit, method: pin.builtFrom.method } } : {}),
      pins: pin.pins.filter((p) => !p.keyPath?.startsWith(RUNNING_KEY)).map((p) => ({ file: p.file, line: p.line })),
    };
  }
  const run = ctx.history.get(historyKey(canonical, digest));
  if (run?.builtFrom) out.builtFrom = run.builtFrom;
  if (run) out.lacks = run.unshipped.map(lacked);
  if (pinnedDigests.includes(digest)) {
    out.status = 'as-pinned';
    if (pinnedDigests.length > 1) out.reason = `${canonical} is pinned at ${pinnedDigests.length} digests; this is one of them`;
    if (run?.status === 'unknown' && run.reason) out.reason = [out.reason, `lacks unknown: ${run.reason}`].filter(Boolean).join('; ');
    return out;
  }
  if (!run?.builtFrom) {
    const why = run?.reason ?? 'no history answer';
    const hint = ctx.registryAsked ? '' : '; it may be a platform-specific manifest of a pinned index, or a build that was never pinned: run with --registry to match it to its index or read its revision label';
    out.reason = `the running digest's build commit is unknown: ${why}${hint}`;
    return out;
  }
  if (!pin?.builtFrom) {
    out.reason = `the pinned digest's build commit is unknown${pin?.reason ? `: ${pin.reason}` : ''}, so the running build cannot be placed against it`;
    return out;
  }
  const r = run.builtFrom.commit;
  const b = pin.builtFrom.commit;
  const pinLacks = new Set(pin.unshipped.map((u) => u.commit));
  out.lacksVsPin = out.lacks.filter((l) => !pinLacks.has(l.commit));
  if (r === b) {
    out.status = 'as-pinned';
    out.reason = `a different digest built from the pin's build commit ${b.slice(0, 10)} (a rebuild of the same source)`;
  } else if (ctx.isAncestor(r, b)) out.status = 'older';
  else if (ctx.isAncestor(b, r)) out.status = 'newer';
  else out.status = 'diverged';
  if (run.status === 'unknown' && run.reason) out.reason = `lacks unknown: ${run.reason}`;
  return out;
}

/** Marks the synthetic pins the running digests ride on through the stale engine. */
export const RUNNING_KEY = 'pinwatch-running:';

/** Of several pinned digests, the one whose build descends from the others' (else the newest build date). */
function newestPin(pins: StaleImage[], ctx: JudgeContext): StaleImage | undefined {
  const withBuild = pins.filter((p) => p.builtFrom);
  if (withBuild.length === 0) return pins[0];
  return withBuild.reduce((best, p) => {
    if (ctx.isAncestor(best.builtFrom!.commit, p.builtFrom!.commit)) return p;
    if (ctx.isAncestor(p.builtFrom!.commit, best.builtFrom!.commit)) return best;
    return Date.parse(p.builtFrom!.date ?? '') > Date.parse(best.builtFrom!.date ?? '') ? p : best;
  });
}

/** Workloads whose pods run one container at several digests; each such container is marked. */
export function findRollouts(containers: RunningContainer[]): Rollout[] {
  const groups = new Map<string, RunningContainer[]>();
  for (const c of containers) {
    if (!c.workload || !c.runningDigest) continue;
    const key = [c.namespace, c.workload.kind, c.workload.name, c.container].join('\0');
    const g = groups.get(key) ?? [];
    g.push(c);
    groups.set(key, g);
  }
  const out: Rollout[] = [];
  for (const g of groups.values()) {
    const byDigest = new Map<string, string[]>();
    for (const c of g) byDigest.set(c.runningDigest!, [...(byDigest.get(c.runningDigest!) ?? []), c.pod]);
    if (byDigest.size < 2) continue;
    const first = g[0]!;
    const rollout: Rollout = {
      namespace: first.namespace,
      workload: first.workload!,
      container: first.container,
      digests: [...byDigest].map(([digest, pods]) => ({ digest, pods: [...new Set(pods)].sort() })).sort((a, b) => a.digest.localeCompare(b.digest)),
    };
    const text = `${first.workload!.kind} ${first.namespace}/${first.workload!.name} runs ${first.container} at ${byDigest.size} digests (a half-finished rollout)`;
    for (const c of g) c.rollout = text;
    out.push(rollout);
  }
  return out.sort((a, b) => `${a.namespace}/${a.workload.name}`.localeCompare(`${b.namespace}/${b.workload.name}`));
}
