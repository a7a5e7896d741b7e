/**
 * `pinwatch running --format github`: one workflow-command annotation per
 * drifting first-party container (error when it fails the policy), then the
 * summary line. The command appends the markdown report to the job summary.
 */
import { runningFails, type RunningPolicy } from '../running/policy.js';
import type { RunningReport } from '../running/types.js';
import { escapeData, escapeProperty } from './overlay-github.js';
import { containerLabel, drifts, headline, summaryLine } from './running-common.js';
import { terminalSafe } from './sanitize.js';

export function formatRunningGithub(report: RunningReport, policy: RunningPolicy): string {
  const out: string[] = [];
  for (const c of report.containers.filter(drifts)) {
    const level = runningFails(c, policy) ? 'error' : c.status === 'unknown' ? 'notice' : 'warning';
    const pin = c.pinned?.pins[0];
    const props = [`title=${escapeProperty(`pinwatch running: ${containerLabel(c)} ${c.status}`)}`, ...(pin ? [`file=${escapeProperty(pin.file)}`, `line=${pin.line}`] : [])];
    out.push(`::${level} ${props.join(',')}::${escapeData(headline(c))}`);
  }
  out.push(summaryLine(report));
  return terminalSafe(`${out.join('\n')}\n`);
}
