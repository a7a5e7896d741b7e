/** `pinwatch triage` text: skew lines first, each with its explanation, the matched literal, its history and each image's standing. */
import type { TriageLine, TriageReport } from '../triage/index.js';
import { describeRunningIn } from '../triage/running.js';
import { plainField, terminalSafe } from './sanitize.js';
import { short, triageBasisLine, triageSummaryLine, VERDICT_LABEL } from './triage-common.js';

const ORDER = { skew: 0, unknown: 1, 'no-skew': 2 } as const;
/** Lacking commits shown per image (the JSON has them all). */
const LACKS_SHOWN = 3;

function lineBlock(l: TriageLine): string[] {
  const out = [`${VERDICT_LABEL[l.verdict]}  ${plainField(l.source)}:${l.lineNumber}  ${plainField(l.text.trim())}`, `  ${plainField(l.explanation)}`];
  for (const m of l.matches) {
    out.push(`  ${plainField(m.file)}:${m.line}${m.atHead ? '' : ' (not at HEAD)'}  ${JSON.stringify(plainField(m.literal))}  [${m.specificity} chars]`);
    if (m.introduced) out.push(`    introduced ${short(m.introduced.commit)} ${m.introduced.date?.slice(0, 10) ?? ''} ${plainField(m.introduced.subject ?? '')}`);
    else if (m.introducedBefore) out.push(`    introduced before the history window (${/^[0-9a-f]{40,64}$/.test(m.introducedBefore) ? short(m.introducedBefore) : plainField(m.introducedBefore)}; --since widens it)`);
    if (m.removed) out.push(`    removed    ${short(m.removed.commit)} ${m.removed.date?.slice(0, 10) ?? ''} ${plainField(m.removed.subject ?? '')}`);
    for (const i of m.images) {
      const running = i.runningIn && i.runningIn.length > 0 ? ` (running in ${plainField(describeRunningIn(i.runningIn))})` : '';
      out.push(`    ${plainField(i.name)}${running}: ${i.standing}: ${plainField(i.reason)}`);
      const shown = [...i.lacks].sort((a, b) => b.mentions.length - a.mentions.length).slice(0, LACKS_SHOWN);
      for (const c of shown) out.push(`      lacks ${short(c.commit)} ${plainField(c.subject)}${c.mentions.length ? `  mentions ${c.mentions.map((t) => `'${plainField(t)}'`).join(', ')}` : ''}`);
      if (i.lacks.length > shown.length) out.push(`      … and ${i.lacks.length - shown.length} more commit(s) to the package`);
    }
  }
  if (l.moreMatches > 0) out.push(`  … ${l.moreMatches} more match(es) (--format json lists the best ${l.matches.length})`);
  return out;
}

export function formatTriageText(report: TriageReport): string {
  const lines = [...report.lines].sort((a, b) => ORDER[a.verdict] - ORDER[b.verdict] || a.source.localeCompare(b.source) || a.lineNumber - b.lineNumber);
  const out = [`pinwatch triage: ${triageSummaryLine(report)}`, triageBasisLine(report), ''];
  for (const l of lines) out.push(...lineBlock(l), '');
  for (const n of report.notes) out.push(`note: ${plainField(n)}`);
  return terminalSafe(`${out.join('\n').trimEnd()}\n`);
}
