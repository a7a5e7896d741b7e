/** Shared wording of the running formats: labels, summary counts, the drift test. */
import type { LackedCommit, RunningContainer, RunningReport } from '../running/types.js';

export const short = (sha: string | undefined, n = 10) => (sha ? sha.slice(0, n) : '');
export const shortDigest = (d: string | undefined) => (d ? `${d.slice(0, 19)}…` : '');

/** `ns/pod/container` (init containers marked). */
export function containerLabel(c: RunningContainer): string {
  return `${c.namespace}/${c.pod}/${c.container}${c.init ? ' (init)' : ''}`;
}

/** A first-party container that does not run what the tree pins or lacks merged work: it gets an evidence section. */
export function drifts(c: RunningContainer): boolean {
  return c.firstParty && (c.status !== 'as-pinned' || c.lacks.length > 0 || c.rollout !== undefined);
}

export function summaryLine(report: RunningReport): string {
  const first = report.containers.filter((c) => c.firstParty);
  const count = (s: string) => first.filter((c) => c.status === s).length;
  const parts = ['as-pinned', 'older', 'newer', 'diverged', 'unknown'].map((s) => `${count(s)} ${s}`);
  const third = report.containers.length - first.length;
  return `${report.containers.length} container(s) in ${report.pods} pod(s): ${first.length} first-party (${parts.join(', ')}), ${third} third-party${report.rollouts.length ? `; ${report.rollouts.length} half-finished rollout(s)` : ''}`;
}

export function lackedText(l: LackedCommit): string {
  return `${short(l.commit)} ${l.date.slice(0, 10)} ${l.type ? `${l.type} ` : ''}${l.pr ? `#${l.pr} ` : ''}${l.subject}`;
}

export function builtText(c: RunningContainer): string {
  return c.builtFrom ? `${short(c.builtFrom.commit)} (${c.builtFrom.method})` : '?';
}

/** The one-line headline of what a drifting container means. */
export function headline(c: RunningContainer): string {
  const name = c.imageName ?? c.repository ?? c.image;
  const pin = c.pinned?.builtFrom ? ` the pin's build ${short(c.pinned.builtFrom.commit)}` : ' the pin';
  switch (c.status) {
    case 'older':
      return `${name} runs a build older than${pin}: it lacks ${c.lacksVsPin.length} commit(s) the pinned build has, ${c.lacks.length} that HEAD has`;
    case 'newer':
      return `${name} runs a build newer than${pin} (an overlaid or unpinned build); it lacks ${c.lacks.length} commit(s) HEAD has`;
    case 'diverged':
      return `${name} runs a build that neither contains nor is contained in${pin}; it lacks ${c.lacksVsPin.length} commit(s) the pinned build has`;
    case 'as-pinned':
      return `${name} runs the pinned build; it lacks ${c.lacks.length} commit(s) HEAD has`;
    default:
      return `${name}: unknown: ${c.reason ?? 'no reason recorded'}`;
  }
}
