/** `pinwatch stale --format markdown`: a summary table and a section per stale image (PR comments, job summaries). */
import type { StaleReport } from '../stale/index.js';
import { ageText, builtFromText, failedBeforeAnswer, imageLabels, summaryCounts, unshippedCount } from './stale-common.js';
import { markdownCode, markdownText, terminalSafe } from './sanitize.js';

// Every value below comes from the repository, git or a registry: escaped for prose or as a code span.
const cell = markdownText;

export function formatStaleMarkdown(report: StaleReport & { notes?: string[] }): string {
  const out: string[] = ['## pinwatch stale', '', summaryCounts(report.images), ''];
  out.push('| Image | Status | Built from | Unshipped | Oldest |', '|---|---|---|---|---|');
  const labels = imageLabels(report.images);
  for (const [n, i] of report.images.entries()) out.push(`| ${markdownCode(labels[n]!, true)} | ${i.status} | ${cell(builtFromText(i))} | ${unshippedCount(i)} | ${ageText(i)} |`);
  out.push('');
  for (const img of report.images) {
    if (img.status === 'current') continue;
    out.push(`### ${markdownCode(img.image)} — ${img.status}`, '');
    out.push(`Repository ${markdownCode(img.repository)}; pins: ${img.pins.map((p) => markdownCode(`${p.file}:${p.line}`)).join(', ')}`, '');
    if (img.builtFrom) {
      out.push(`Built from ${markdownCode(img.builtFrom.commit.slice(0, 12))} (${cell(img.builtFrom.method)}).`, '');
      const failed = failedBeforeAnswer(img);
      if (failed.length > 0) out.push('Stronger methods that did not answer:', '', ...failed.map((f) => `- ${cell(f.method)}: ${cell(f.reason)}`), '');
    }
    if (img.reason) out.push(`Reason: ${cell(img.reason)}`, '');
    if (img.unshipped.length > 0) {
      out.push('| Commit | Date | Type | PR | Subject |', '|---|---|---|---|---|');
      for (const u of img.unshipped) out.push(`| ${markdownCode(u.commit.slice(0, 10), true)} | ${cell(u.date.slice(0, 10))} | ${cell(u.type ?? (u.fix ? 'fix' : ''))} | ${u.pr ? `#${u.pr}` : ''} | ${cell(u.subject)} |`);
      out.push('');
    }
  }
  for (const w of report.warnings) out.push(`> **Warning:** ${cell(w)}`, '');
  for (const n of report.notes ?? []) out.push(`> Note: ${cell(n)}`, '');
  return terminalSafe(`${out.join('\n')}\n`);
}
