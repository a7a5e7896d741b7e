/**
 * `pinwatch scan` as text: pins grouped by image repository (first-party first),
 * then skipped files, problems, exclusion counts, and what the config assumed.
 */
import type { Pin } from '../model/index.js';
import type { ScanResult } from '../scan/index.js';
import { plainField, terminalSafe } from './sanitize.js';
import { maxOf } from './style.js';

const DIGEST_SHOWN = 12;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function shortVersion(p: Pin): string {
  const tag = p.ref.tag !== undefined ? `:${p.ref.tag}` : '';
  if (p.ref.digest === undefined) return tag || '(no tag, no digest)';
  const [algo, hex = ''] = p.ref.digest.split(':');
  return `${tag}@${algo}:${hex.slice(0, DIGEST_SHOWN)}…`;
}

const INCOMPLETE_GROUP = '(repository not stored in the file)';
const SOURCE_GROUP = '(source refs: built from source at release)';

/** First-party groups, then third-party, then pins whose repository the chart supplies. */
const groupRank = (p: Pin) => (p.source ? 3 : p.incomplete ? 2 : p.firstParty ? 0 : 1);

function groupByRepository(pins: readonly Pin[]): [string, Pin[]][] {
  const groups = new Map<string, Pin[]>();
  for (const p of pins) {
    const key = p.source ? SOURCE_GROUP : p.incomplete ? INCOMPLETE_GROUP : p.ref.name;
    const list = groups.get(key) ?? [];
    list.push(p);
    groups.set(key, list);
  }
  return [...groups.entries()].sort(([a, pa], [b, pb]) => groupRank(pa[0]!) - groupRank(pb[0]!) || (a < b ? -1 : a > b ? 1 : 0));
}

function groupLabel(pins: readonly Pin[]): string {
  const first = pins[0]!;
  if (first.source) return `${plural(pins.length, 'source ref')}, not judged as pins`;
  if (first.incomplete) return `incomplete, ${plural(pins.length, 'pin')}`;
  return `${first.firstParty ? 'first-party' : 'third-party'}, ${plural(pins.length, 'pin')}`;
}

function pinRows(pins: readonly Pin[]): string[] {
  const cells = pins.map((p) => [`${plainField(p.file)}:${p.line}`, plainField(p.keyPath ?? '-'), p.shape + (p.scraped ? ' (scraped)' : ''), p.form, (p.source ? plainField(p.raw) : shortVersion(p)) + (p.tagFrom ? `  (tag: ${plainField(p.tagFrom.file)}:${p.tagFrom.line} ${p.tagFrom.key}${p.tagFrom.template ? `, as ${plainField(p.tagFrom.template.file)}:${p.tagFrom.template.line} formats it` : ''})` : '') + (p.incomplete ? `  ${p.incomplete}` : '')]);
  const widths = [0, 1, 2, 3].map((i) => maxOf(cells.map((c) => c[i]!.length)));
  return cells.map((c) => `  ${c.map((v, i) => (i < 4 ? v.padEnd(widths[i]!) : v)).join('  ')}`.trimEnd());
}

function pinSection(result: ScanResult): string[] {
  const lines: string[] = [];
  for (const [repo, pins] of groupByRepository(result.pins)) {
    lines.push(`${repo}  (${groupLabel(pins)})`);
    for (const row of pinRows(pins)) lines.push(row);
    lines.push('');
  }
  return lines;
}

function headline(result: ScanResult): string {
  const first = result.pins.filter((p) => p.firstParty && !p.source).length;
  const sources = result.pins.filter((p) => p.source).length;
  return (
    `${plural(result.pins.length, 'pin')} (${first} first-party, ${result.pins.length - first - sources} third-party${sources ? `, ${sources} source ref${sources === 1 ? '' : 's'}` : ''}) ` +
    `in ${plural(result.filesScanned, 'file')} scanned; ${result.skipped.length} skipped, ${plural(result.problems.length, 'problem')}`
  );
}

function skippedSection(result: ScanResult): string[] {
  if (result.skipped.length === 0) return [];
  return [
    `Skipped or scraped files (${result.skipped.length}):`,
    ...result.skipped.map((s) => `  ${plainField(s.file)}${s.line ? `:${s.line}` : ''}  ${s.code}${s.scraped ? ' (scraped)' : ''}: ${s.reason}`),
    '',
  ];
}

function problemSection(result: ScanResult): string[] {
  if (result.problems.length === 0) return [];
  return [
    `Problems (${result.problems.length}):`,
    ...result.problems.map((p) => `  ${plainField(p.file ?? '')}${p.line ? `:${p.line}` : ''}${p.line && p.column ? `:${p.column}` : ''}  ${p.code}: ${p.reason}`),
    '',
  ];
}

function excludedSection(result: ScanResult): string[] {
  if (result.excluded.length === 0) return [];
  return [
    'Left out:',
    ...result.excluded.map((e) => `  ${String(e.count).padStart(5)}  ${e.reason}  (e.g. ${e.examples.map(plainField).join(', ')})`),
    '',
  ];
}

function configSection(result: ScanResult): string[] {
  const o = result.config.origin;
  const lines = [`Config: ${o.file ?? '(none)'}`];
  for (const a of o.assumed) lines.push(`  assumed: ${a}`);
  return lines;
}

/**
 * Kustomize overlays: with `kustomize`, every root overlay and the ref each
 * container image of its resources deploys (with the images: entries that set
 * it); without, one line saying how many there are.
 */
function kustomizeSection(result: ScanResult, full: boolean): string[] {
  const overlays = result.kustomize;
  if (overlays.length === 0) return [];
  if (!full) return [`Kustomize overlays: ${overlays.length} (scan --kustomize shows the ref each one deploys)`, ''];
  const lines = [`Kustomize overlays (${overlays.length}): the ref each container image deploys`];
  for (const o of overlays) {
    lines.push(`  ${plainField(o.kustomization)}`);
    const cells = o.images.map((i) => [
      plainField(i.effective ?? `(template: ${(i.templated ?? '?').replace(/ at [^ ]+$/, '')})`),
      `${plainField(i.file)}:${i.line}`,
      i.setBy.length > 0 ? `set by ${i.setBy.map(plainField).join(', ')}` : 'as written',
    ]);
    const widths = [0, 1].map((k) => maxOf(cells.map((c) => c[k]!.length)));
    for (const c of cells) lines.push(`    ${c[0]!.padEnd(widths[0]!)}  ${c[1]!.padEnd(widths[1]!)}  ${c[2]}`.trimEnd());
  }
  lines.push('');
  return lines;
}

export interface ScanTextOptions {
  /** List every kustomize overlay's effective refs (`scan --kustomize`). */
  kustomize?: boolean;
}

export function formatScanText(result: ScanResult, options: ScanTextOptions = {}): string {
  const lines = [
    headline(result),
    '',
    ...pinSection(result),
    ...kustomizeSection(result, options.kustomize === true),
    ...skippedSection(result),
    ...problemSection(result),
    ...excludedSection(result),
    ...configSection(result),
  ];
  return terminalSafe(`${lines.join('\n')}\n`);
}
