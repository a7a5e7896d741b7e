/** `pinwatch triage --format markdown` (and the GitHub job summary): a table of the listed lines, then the skew lines' evidence. */
import type { TriageReport } from '../triage/index.js';
import { markdownCode, markdownText, terminalSafe } from './sanitize.js';
import { short, triageBasisLine, triageSummaryLine } from './triage-common.js';

const ICON = { skew: '❌ skew', 'no-skew': '✅ no-skew', unknown: '❔ unknown' } as const;

export function formatTriageMarkdown(report: TriageReport): string {
  const out = ['## pinwatch triage', '', markdownText(triageSummaryLine(report)), '', markdownText(triageBasisLine(report)), ''];
  if (report.lines.length > 0) {
    out.push('| line | verdict | message | source |', '|---|---|---|---|');
    for (const l of report.lines) {
      const m = l.matches[0];
      const src = m ? `${markdownCode(`${m.file}:${m.line}`, true)}${m.atHead ? '' : ' (not at HEAD)'}` : '';
      out.push(`| ${markdownText(`${l.source}:${l.lineNumber}`)} | ${ICON[l.verdict]} | ${markdownCode(l.text.trim().slice(0, 200), true)} | ${src} |`);
    }
    out.push('');
  }
  const skew = report.lines.filter((l) => l.verdict === 'skew');
  for (const l of skew) {
    out.push(`### ${markdownText(`${l.source}:${l.lineNumber}`)}`, '', markdownText(l.explanation), '');
    for (const m of l.matches) {
      for (const i of m.images.filter((x) => x.standing === 'skew')) {
        const mentioning = i.lacks.filter((c) => c.mentions.length > 0);
        for (const c of mentioning) out.push(`- ${markdownText(i.name)} lacks ${markdownCode(short(c.commit))} ${markdownText(c.subject)} (mentions ${c.mentions.map((t) => markdownCode(t)).join(', ')})`);
        if (!m.atHead && m.removed) out.push(`- ${markdownText(i.name)} still has the message, removed by ${markdownCode(short(m.removed.commit))} ${markdownText(m.removed.subject ?? '')}`);
      }
    }
    out.push('');
  }
  for (const n of report.notes) out.push(`> ${markdownText(n)}`);
  return terminalSafe(`${out.join('\n').trimEnd()}\n`);
}
