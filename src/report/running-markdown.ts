/** `pinwatch running --format markdown` (and the github job summary): what ran older than the tree, for every reader of a red run. */
import type { RunningReport } from '../running/types.js';
import { builtText, containerLabel, drifts, headline, short, summaryLine } from './running-common.js';
import { markdownCode, markdownText, terminalSafe } from './sanitize.js';

const cell = markdownText;

export function formatRunningMarkdown(report: RunningReport): string {
  const out: string[] = ['## pinwatch running', '', cell(summaryLine(report)), ''];
  const drifting = report.containers.filter(drifts);
  const behind = drifting.filter((c) => c.status === 'older' || c.status === 'diverged');
  if (behind.length > 0) out.push(`**These components ran older than the tree** (HEAD ${markdownCode(short(report.head))}):`, '', ...behind.map((c) => `- ${markdownCode(containerLabel(c))}: ${cell(headline(c))}`), '');
  out.push('| Container | Image | Status | Built from | Lacks | vs pin |', '|---|---|---|---|---|---|');
  for (const c of report.containers.filter((x) => x.firstParty)) {
    out.push(`| ${markdownCode(containerLabel(c), true)} | ${markdownCode(c.imageName ?? c.canonical ?? '', true)} | ${c.status} | ${cell(builtText(c))} | ${c.lacks.length} | ${c.lacksVsPin.length} |`);
  }
  const third = report.containers.length - report.containers.filter((x) => x.firstParty).length;
  out.push('', `${third} third-party container(s) not judged.`, '');
  for (const c of drifting) {
    out.push(`### ${markdownCode(containerLabel(c))} — ${c.status}`, '', cell(headline(c)), '');
    if (c.reason) out.push(`Reason: ${cell(c.reason)}`, '');
    if (c.rollout) out.push(cell(c.rollout), '');
    const list = c.lacksVsPin.length > 0 ? c.lacksVsPin : c.lacks;
    if (list.length > 0) {
      out.push(c.lacksVsPin.length > 0 ? 'Lacks (the pinned build has these):' : 'Lacks (merged since its build):', '', '| Commit | Date | Type | PR | Subject |', '|---|---|---|---|---|');
      for (const l of list.slice(0, 30)) out.push(`| ${markdownCode(short(l.commit), true)} | ${cell(l.date.slice(0, 10))} | ${cell(l.type ?? '')} | ${l.pr ? `#${l.pr}` : ''} | ${cell(l.subject)} |`);
      if (list.length > 30) out.push('', `… and ${list.length - 30} more.`);
      out.push('');
    }
  }
  if (report.filesWithoutPods.length > 0) out.push(`> Files with no Pod: ${report.filesWithoutPods.map((f) => markdownCode(f)).join(', ')}`, '');
  for (const w of report.warnings) out.push(`> **Warning:** ${cell(w)}`, '');
  for (const n of report.notes) out.push(`> Note: ${cell(n)}`, '');
  return terminalSafe(`${out.join('\n')}\n`);
}
