/**
 * `overlay`: put an artifact's current-main refs onto a checkout, file by file,
 * only where every difference is a ref. Walks both trees, classifies each
 * ref-bearing file (same, skipped, overlaid, drift, failed, missing-in-artifact,
 * new-in-artifact) and writes overlaid files atomically (not under dry-run).
 * One file's failure never stops the run.
 */
import { statSync } from 'node:fs';
import { createTwoFilesPatch } from 'diff';
import type { FileKind } from '../collect/index.js';
import type { Config } from '../config/types.js';
import { isFirstParty } from '../model/index.js';
import { canonicalRepository, firstPartyPrefixes } from '../config/aliases.js';
import { encodeText, readTextFile, collectRead, type TextRead } from '../scan/index.js';
import { PinwatchError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { containedPath, resolveInsideRepo } from '../util/repo-path.js';
import { readRegularFile } from '../util/safe-read.js';
import { compareCopies, type CompareSide } from './compare.js';
import { listTree, underDir, type TreeFile } from './files.js';
import { findSkip, normaliseDir, skipReason, type SkipSets } from './skip-sets.js';
import type { OverlayFileResult, OverlayReport, OverlaySummary } from './types.js';

export interface OverlayOptions {
  /** Absolute checkout root. */
  root: string;
  /** Absolute artifact root. */
  from: string;
  /** Checkout subdirectory the artifact root stands for ('' or undefined: the repo root). */
  at?: string;
  config: Pick<Config, 'include' | 'exclude' | 'extraFiles' | 'skipVendoredCharts' | 'firstParty'> & { aliases?: Config['aliases'] };
  skip: SkipSets;
  dryRun: boolean;
  ignoreComments: boolean;
}

export function emptySummary(): OverlaySummary {
  return { overlaid: 0, same: 0, skipped: 0, drift: 0, failed: 0, missingInArtifact: 0, newInArtifact: 0 };
}

/** `--at` must name a directory inside the checkout (`../..` or `/etc` would compare nothing and pass). */
function checkAt(root: string, at: string): void {
  if (at === '') return;
  try {
    resolveInsideRepo(root, at);
  } catch (e) {
    if (!(e instanceof PinwatchError)) throw e;
    throw new PinwatchError(e.code, `--at ${e.message.replace(/; expected .*$/, '')}; expected a subdirectory of the checkout, like --at packages`, {}, { cause: e });
  }
}

/** Throws PinwatchError `path-outside-repo` when `at` leaves the checkout. */
export function runOverlay(options: OverlayOptions): OverlayReport {
  const at = normaliseDir(options.at ?? '');
  checkAt(options.root, at);
  const report: OverlayReport = {
    root: options.root,
    from: options.from,
    at,
    dryRun: options.dryRun,
    ignoreComments: options.ignoreComments,
    summary: emptySummary(),
    files: [],
    excluded: [],
    notes: [],
  };
  const missing = artifactProblem(options.from);
  if (missing) {
    report.noArtifact = missing;
    return report;
  }
  const checkout = underDir(listTree(options.root, '', options.config), at);
  const artifact = listTree(options.from, at, options.config);
  const names = [...new Set([...checkout.files.keys(), ...artifact.files.keys()])].sort();
  for (const file of names) {
    const result = overlayOne(file, checkout.files.get(file), artifact.files.get(file), options);
    report.files.push(result);
    count(report.summary, result);
  }
  report.excluded = checkout.excluded;
  report.notes = [...checkout.notes, ...artifact.notes.filter((n) => n.code !== 'extra-file-missing' && n.code !== 'extra-file-no-match').map((n) => ({ ...n, reason: `in the artifact: ${n.reason}` }))];
  return report;
}

function artifactProblem(from: string): string | undefined {
  try {
    if (!statSync(from).isDirectory()) return `${from} is not a directory: nothing to overlay; every file keeps its committed refs`;
    return undefined;
  } catch {
    return `no artifact tree at ${from}: nothing to overlay; every file keeps its committed refs`;
  }
}

function count(summary: OverlaySummary, r: OverlayFileResult): void {
  switch (r.status) {
    case 'missing-in-artifact':
      summary.missingInArtifact++;
      break;
    case 'new-in-artifact':
      summary.newInArtifact++;
      break;
    default:
      summary[r.status]++;
  }
}

function overlayOne(file: string, mine: TreeFile | undefined, theirs: TreeFile | undefined, options: OverlayOptions): OverlayFileResult {
  const kind = [mine, theirs].find((t) => t && !t.unusable)?.kind;
  const skip = findSkip(file, options.skip);
  if (skip) return { file, kind, status: 'skipped', skip, reason: skipReason(skip) };
  if (!theirs) return { file, kind, status: 'missing-in-artifact', reason: 'in the checkout but not in the artifact: kept as committed' };
  if (!mine) return { file, kind, status: 'new-in-artifact', reason: 'in the artifact but not in the checkout: not added' };
  if (mine.unusable || theirs.unusable) {
    return { file, kind, status: 'failed', reason: `the ${mine.unusable ? 'checkout' : 'artifact'} copy is ${mine.unusable ?? theirs.unusable}` };
  }
  try {
    return comparePair(file, mine.kind, mine.abs, theirs.abs, options);
  } catch (e) {
    return { file, kind, status: 'failed', reason: `internal error while comparing: ${(e as Error).message}` };
  }
}

function comparePair(file: string, kind: FileKind, minePath: string, theirsPath: string, options: OverlayOptions): OverlayFileResult {
  const mine = readTextFile(minePath, file);
  const theirs = readTextFile(theirsPath, file);
  if ('skipped' in mine || 'skipped' in theirs) {
    if (sameBytes(minePath, theirsPath)) return { file, kind, status: 'same' };
    const [where, why] = 'skipped' in mine ? ['checkout', mine.skipped.reason] : ['artifact', (theirs as { skipped: { reason: string } }).skipped.reason];
    return { file, kind, status: 'failed', reason: `the ${where} copy cannot be compared: ${why}` };
  }
  // both copies decoded the same way (UTF-8, or Latin-1 when not UTF-8): equal texts are equal bytes,
  // and writing the text in its encoding writes the artifact's bytes
  if (!mine.latin1 !== !theirs.latin1) {
    const [utf8, other] = mine.latin1 ? ['artifact', 'checkout'] : ['checkout', 'artifact'];
    return { file, kind, status: 'drift', reason: `the ${utf8} copy is UTF-8 and the ${other} copy is not (${(mine.latin1 ?? theirs.latin1)!.reason}): the encoding differs, not only refs` };
  }
  if (mine.text === theirs.text) return { file, kind, status: 'same' };
  const a = side(mine, file, kind, options, 'checkout');
  if ('failed' in a) return { file, kind, status: 'failed', reason: a.failed };
  const b = side(theirs, file, kind, options, 'artifact');
  if ('failed' in b) return { file, kind, status: 'failed', reason: b.failed };
  const aliases = options.config.aliases ?? {};
  // with aliases: a first-party pin may move to its alias (the CI build) but not to another image; third-party moves stay ref differences
  const prefixes = firstPartyPrefixes({ firstParty: options.config.firstParty, aliases });
  const sameImage = Object.keys(aliases).length > 0
    ? (x: string, y: string) => (!isFirstParty(x, prefixes) && !isFirstParty(y, prefixes)) || canonicalRepository(x, aliases) === canonicalRepository(y, aliases)
    : undefined;
  const verdict = compareCopies(kind, a, b, { ignoreComments: options.ignoreComments, ...(sameImage ? { sameImage } : {}) });
  const base: OverlayFileResult = { file, kind, status: 'drift', method: verdict.method, pins: a.collected.pins.length };
  if (!verdict.refOnly) {
    return { ...base, reason: verdict.reason, lines: verdict.lines, ...(verdict.pinDrift.length ? { pinDrift: verdict.pinDrift } : {}) };
  }
  const overlaid: OverlayFileResult = { ...base, status: 'overlaid', ...(verdict.reason ? { reason: verdict.reason } : {}) };
  if (verdict.lines.length > 0) overlaid.lines = verdict.lines;
  if (options.dryRun) return { ...overlaid, patch: createTwoFilesPatch(`a/${file}`, `b/${file}`, a.text, b.text) };
  try {
    // never through a symlinked folder leading out of the checkout
    writeFileAtomic(containedPath(options.root, minePath, 'the checkout copy'), encodeText(b.text, theirs, file));
  } catch (e) {
    return { ...base, status: 'failed', reason: `cannot write the artifact's copy: ${e instanceof PinwatchError ? e.message : ((e as NodeJS.ErrnoException).code ?? (e as Error).message)}` };
  }
  return overlaid;
}

/** Byte equality, for copies that are not text (two identical binaries are `same`, not `failed`). */
function sameBytes(a: string, b: string): boolean {
  const x = readRegularFile(a);
  const y = readRegularFile(b);
  return 'bytes' in x && 'bytes' in y && x.bytes.equals(y.bytes);
}

/** One copy, collected as scan would: a Latin-1 copy by the text scrape (so it is compared line by line). */
function side(read: TextRead, file: string, kind: FileKind, options: OverlayOptions, where: string): CompareSide | { failed: string } {
  try {
    return { text: read.text, collected: collectRead(kind, read, { file, isFirstParty: (repo) => isFirstParty(repo, firstPartyPrefixes({ firstParty: options.config.firstParty, aliases: options.config.aliases ?? {} })) }) };
  } catch (e) {
    return { failed: `the collector failed on the ${where} copy: ${(e as Error).message}` };
  }
}
