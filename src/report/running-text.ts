/** `pinwatch running` (text): one table of every container, then the evidence for each drifting first-party container. */
import type { RunningReport } from '../running/types.js';
import { builtText, containerLabel, drifts, headline, lackedText, short, shortDigest, summaryLine } from './running-common.js';
import { terminalSafe } from './sanitize.js';
import { maxOf } from './style.js';

const MAX_LISTED = 20;

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => maxOf(rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((v, i) => (i === r.length - 1 ? v : v.padEnd(widths[i]!))).join('  ').trimEnd());
}

export function formatRunningText(report: RunningReport): string {
  const out: string[] = [`pinwatch running: ${summaryLine(report)} (HEAD ${short(report.head)})`, ''];
  const rows = [['CONTAINER', 'IMAGE', 'RUNNING', 'STATUS', 'BUILT FROM', 'LACKS']];
  for (const c of report.containers) {
    rows.push([
      containerLabel(c),
      c.firstParty ? (c.imageName ?? c.canonical ?? '') : `${c.repository ?? c.image} (third-party)`,
      shortDigest(c.runningDigest),
      c.firstParty ? c.status : '-',
      c.firstParty ? builtText(c) : '',
      c.firstParty && c.builtFrom ? `${c.lacks.length}${c.lacksVsPin.length ? ` (${c.lacksVsPin.length} vs pin)` : ''}` : '',
    ]);
  }
  for (const row of table(rows)) out.push(row);
  out.push('');
  for (const c of report.containers.filter(drifts)) {
    out.push(`${containerLabel(c)}: ${headline(c)}`);
    out.push(`  image ${c.image}${c.repository && c.repository !== c.canonical ? ` (runs from ${c.repository}, an alias of ${c.canonical})` : ''}`);
    if (c.runningDigest) out.push(`  running ${c.runningDigest}${c.platform ? ` (the runtime reported platform manifest ${c.platform.manifest}, listed by this index)` : ''}`);
    if (c.builtFrom) out.push(`  built from ${c.builtFrom.commit} (${c.builtFrom.method})${c.builtFrom.subject ? ` "${c.builtFrom.subject}"` : ''}`);
    if (c.pinned) out.push(`  pinned ${c.pinned.digest}${c.pinned.builtFrom ? `, built from ${c.pinned.builtFrom.commit}` : ''}${c.pinned.pins[0] ? ` at ${c.pinned.pins.map((p) => `${p.file}:${p.line}`).slice(0, 3).join(', ')}` : ''}`);
    if (c.rollout) out.push(`  ${c.rollout}`);
    if (c.reason && c.status !== 'unknown') out.push(`  note: ${c.reason}`);
    if (c.lacksVsPin.length > 0) {
      out.push(`  lacks vs the pin (${c.lacksVsPin.length}):`);
      for (const l of c.lacksVsPin.slice(0, MAX_LISTED)) out.push(`    ${lackedText(l)}`);
      if (c.lacksVsPin.length > MAX_LISTED) out.push(`    … and ${c.lacksVsPin.length - MAX_LISTED} more (--format json lists all)`);
    }
    const rest = c.lacks.filter((l) => !c.lacksVsPin.some((v) => v.commit === l.commit));
    if (rest.length > 0) {
      out.push(`  lacks, merged since${c.lacksVsPin.length ? ' the pin too' : ''} (${rest.length}):`);
      for (const l of rest.slice(0, MAX_LISTED)) out.push(`    ${lackedText(l)}`);
      if (rest.length > MAX_LISTED) out.push(`    … and ${rest.length - MAX_LISTED} more (--format json lists all)`);
    }
    out.push('');
  }
  if (report.filesWithoutPods.length > 0) out.push(`files with no Pod (${report.filesWithoutPods.length}): ${report.filesWithoutPods.join(', ')}`, '');
  for (const w of report.warnings) out.push(`warning: ${w}`);
  for (const n of report.notes) out.push(`note: ${n}`);
  return terminalSafe(`${out.join('\n').trimEnd()}\n`);
}
