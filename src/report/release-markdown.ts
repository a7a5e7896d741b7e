/**
 * `promote`, `mirror` and `compare` as Markdown (`--format markdown`, and the job
 * summary of `--format github`) and as GitHub workflow-command annotations.
 * Pure: results in, text out; every untrusted field escaped.
 */
import type { CompareResult, MirrorResult, PromoteResult, RewriteResult } from '../release/index.js';
import { escapeData, escapeProperty } from './overlay-github.js';
import { markdownCode, markdownText, terminalSafe } from './sanitize.js';
import { pushAll } from '../util/list.js';

function rewriteMarkdown(r: RewriteResult | undefined): string[] {
  if (!r) return [];
  const out = ['', `**Rewrite**: ${r.changes.length} pin(s) in ${r.files.length} file(s)${r.written ? ', written' : ''}`, ''];
  if (r.changes.length) out.push('| File | Key | From | To |', '| --- | --- | --- | --- |');
  for (const c of r.changes) out.push(`| ${markdownCode(`${c.file}:${c.line}`, true)} | ${markdownCode(c.keyPath ?? c.shape, true)} | ${markdownCode(c.from, true)} | ${markdownCode(c.to, true)} |`);
  for (const p of r.problems) out.push(`- ${p.blocking ? '**error**' : 'note'} ${markdownText(p.reason)}`);
  for (const x of r.remaining) out.push(`- remaining ${x.kind} ${markdownCode(`${x.file}:${x.line}`)}: ${markdownCode(x.text)}`);
  return out;
}

export function formatPromoteMarkdown(r: PromoteResult): string {
  const out = [`### pinwatch promote ${markdownCode(r.tag)}${r.dryRun ? ' (dry run)' : ''}`, '', '| Repository | Digest | Action | Reason |', '| --- | --- | --- | --- |'];
  for (const i of r.images) out.push(`| ${markdownCode(i.repository, true)} | ${i.digest ? markdownCode(i.digest, true) : ''} | ${i.action} | ${markdownText(i.reason)} |`);
  pushAll(out, rewriteMarkdown(r.rewrite));
  if (r.refused) out.push('', `**Refused**: ${markdownText(r.refused)}`);
  return terminalSafe(`${out.join('\n')}\n`);
}

export function formatMirrorMarkdown(r: MirrorResult): string {
  const out = [`### pinwatch mirror ${markdownCode(r.from)} → ${markdownCode(r.to)}${r.dryRun ? ' (dry run)' : ''}`, '', '| Repository | Destination | Action | Reason |', '| --- | --- | --- | --- |'];
  for (const i of r.images) out.push(`| ${markdownCode(`${i.repository}${i.digest ? `@${i.digest}` : ''}`, true)} | ${markdownCode(i.destination, true)} | ${i.action} | ${markdownText(i.reason)} |`);
  pushAll(out, rewriteMarkdown(r.rewrite));
  if (r.refused) out.push('', `**Refused**: ${markdownText(r.refused)}`);
  return terminalSafe(`${out.join('\n')}\n`);
}

export function formatCompareMarkdown(r: CompareResult): string {
  if (r.noTree) return terminalSafe(`### pinwatch compare\n\n${markdownText(r.noTree)}\n`);
  const s = r.summary;
  const out = [`### pinwatch compare`, '', `${s.same} same, ${s['tags-only']} tags-only, ${s.digests} digests, ${s.drift} drift, ${s.missing} missing, ${s.new} new, ${s.failed} failed`, ''];
  const shown = r.files.filter((f) => f.status !== 'same');
  if (shown.length) out.push('| File | Status | Detail |', '| --- | --- | --- |');
  for (const f of shown) {
    const detail = [f.reason ?? '', ...f.refs.map((x) => `${x.keyPath}: ${x.from} → ${x.to}`), ...f.drift].filter(Boolean).join('; ');
    out.push(`| ${markdownCode(f.file, true)} | ${f.status} | ${markdownText(detail)} |`);
  }
  return terminalSafe(`${out.join('\n')}\n`);
}

function annotation(level: 'error' | 'warning' | 'notice', file: string | undefined, message: string): string {
  return `::${level} ${file ? `file=${escapeProperty(file)}` : ''}::${escapeData(message)}`;
}

export function formatPromoteGithub(r: PromoteResult): string {
  const out = r.images.filter((i) => i.action === 'conflict' || (r.refused && i.action === 'skipped')).map((i) => annotation('error', i.pins[0]?.split(':')[0], `${i.repository}: ${i.reason}`));
  if (r.refused) out.push(annotation('error', undefined, `promote ${r.tag} refused: ${r.refused}`));
  out.push(`promote ${r.tag}: ${r.images.filter((i) => i.action === 'tagged').length} tagged, ${r.images.filter((i) => i.action === 'already').length} already, ${r.images.filter((i) => i.action === 'conflict').length} conflict, ${r.images.filter((i) => i.action === 'skipped').length} skipped`);
  return terminalSafe(`${out.join('\n')}\n`);
}

export function formatMirrorGithub(r: MirrorResult): string {
  const out = r.images.filter((i) => i.action === 'failed' || i.action === 'skipped').map((i) => annotation('error', i.pins[0]?.split(':')[0], `${i.repository}: ${i.reason}`));
  for (const x of r.rewrite?.remaining ?? []) out.push(annotation(x.kind === 'pin' ? 'error' : 'warning', x.file, `line ${x.line} still names ${r.from}: ${x.text}`));
  if (r.refused) out.push(annotation('error', undefined, `mirror refused: ${r.refused}`));
  out.push(`mirror ${r.from} -> ${r.to}: ${r.images.filter((i) => i.action === 'copied' || i.action === 'present').length} of ${r.images.length} image(s) at the destination`);
  return terminalSafe(`${out.join('\n')}\n`);
}

export function formatCompareGithub(r: CompareResult): string {
  const out = r.files.filter((f) => f.status !== 'same' && f.status !== 'tags-only').map((f) => annotation('error', f.file, `${f.status}: ${[f.reason, ...f.drift].filter(Boolean).join('; ')}`));
  const s = r.summary;
  out.push(r.noTree ? `compare: ${r.noTree}` : `compare: ${s.same} same, ${s['tags-only']} tags-only, ${s.digests} digests, ${s.drift} drift, ${s.missing} missing, ${s.new} new, ${s.failed} failed`);
  return terminalSafe(`${out.join('\n')}\n`);
}
