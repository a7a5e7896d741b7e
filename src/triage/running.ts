/**
 * `triage --pods`: the builds a pod list runs, per first-party image, as triage
 * judges them — from `running`'s report (its engine already told which commit
 * built each running digest). One image can run at several builds (a rollout,
 * two lanes) and some of its containers may have no known build: each distinct
 * build is judged on its own, and every container whose build is unknown is
 * kept as an unknown build, so its lines can never come out `no-skew`.
 */
import type { RunningContainer, RunningReport } from '../running/types.js';
import type { ImageBuild } from './types.js';

/** One build an image runs (or a group of its containers with no known build), and where. */
export interface RunningBuild {
  build?: ImageBuild;
  /** Why there is no build commit (set when `build` is not). */
  reason?: string;
  /** `namespace/pod/container` of every container that runs it, sorted. */
  runningIn: string[];
}

const where = (c: RunningContainer) => `${c.namespace}/${c.pod}/${c.container}`;

/** Canonical repository → the builds its containers run: known builds first (oldest commit order is the caller's), then unknown groups by reason. */
export function runningImageBuilds(report: Pick<RunningReport, 'containers'>): Map<string, RunningBuild[]> {
  const byRepo = new Map<string, { known: Map<string, RunningBuild>; unknown: Map<string, RunningBuild> }>();
  for (const c of report.containers) {
    if (!c.firstParty || !c.canonical) continue;
    let e = byRepo.get(c.canonical);
    if (!e) byRepo.set(c.canonical, (e = { known: new Map(), unknown: new Map() }));
    if (c.builtFrom) {
      const b = e.known.get(c.builtFrom.commit);
      if (b) b.runningIn.push(where(c));
      else e.known.set(c.builtFrom.commit, { build: { commit: c.builtFrom.commit, method: c.builtFrom.method }, runningIn: [where(c)] });
      continue;
    }
    const reason = c.reason ?? (c.runningDigest ? `its running digest ${c.runningDigest.slice(0, 19)}… has no known build commit` : 'no running digest');
    const u = e.unknown.get(reason);
    if (u) u.runningIn.push(where(c));
    else e.unknown.set(reason, { reason, runningIn: [where(c)] });
  }
  const out = new Map<string, RunningBuild[]>();
  for (const [repo, e] of byRepo) {
    const list = [...e.known.values(), ...e.unknown.values()];
    for (const b of list) b.runningIn.sort();
    out.set(repo, list);
  }
  return out;
}

/** `ns/pod/container`, or the first one and how many more. */
export function describeRunningIn(list: readonly string[]): string {
  if (list.length === 0) return '';
  return list.length === 1 ? list[0]! : `${list[0]!} and ${list.length - 1} more container(s)`;
}
