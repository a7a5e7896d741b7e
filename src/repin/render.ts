/**
 * Turn planned span edits into new file texts, and prove each one: YAML scalars
 * are re-parsed by the edit engine; then the whole new text is collected again
 * and every rewritten pin must read back with the target digest and none with an
 * old one. Nothing is written here.
 */
import { createTwoFilesPatch } from 'diff';
import { collectFile, type FileKind } from '../collect/index.js';
import { applySpans, editYaml } from '../edit/index.js';
import type { SpanEdit } from '../edit/index.js';
import { PinwatchError } from '../errors.js';
import type { Pin } from '../model/index.js';
import type { FileEdit, RepinTarget } from './types.js';

/** Which collector reads a file, judged from the pins found in it. */
export function kindOfPins(pins: Pin[]): FileKind {
  if (pins.some((p) => p.shape === 'tag-file')) return 'tag';
  if (pins.some((p) => p.shape === 'dockerfile')) return 'dockerfile';
  if (pins.some((p) => p.shape === 'text' || p.scraped)) return 'text';
  return 'yaml';
}

export function renderFile(file: string, before: string, pins: Pin[], edits: SpanEdit[], target: RepinTarget, oldDigests: string[], isFirstParty: (r: string) => boolean, sameImage: (repository: string) => boolean = (r) => r === target.repository): FileEdit {
  const kind = kindOfPins(pins);
  const scraped = pins.some((p) => p.scraped);
  const after = kind === 'yaml' && !scraped ? editYaml(before, edits, file).text : applySpans(before, edits, file);
  verifyByRecollecting(file, after, kind, pins, target, oldDigests, isFirstParty, sameImage);
  return { file, before, after, diff: createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, undefined, undefined, { context: 3 }) };
}

function verifyByRecollecting(file: string, after: string, kind: FileKind, pins: Pin[], target: RepinTarget, oldDigests: string[], isFirstParty: (r: string) => boolean, sameImage: (repository: string) => boolean): void {
  const collected = collectFile(kind, after, { file, isFirstParty }).pins;
  const stale = collected.filter((p) => sameImage(p.ref.name) && p.ref.digest !== undefined && oldDigests.includes(p.ref.digest));
  if (stale.length > 0) {
    throw new PinwatchError('repin-verify', `after the edit ${file}:${stale[0]!.line} still reads ${stale[0]!.raw}; not writing`, { file, line: stale[0]!.line });
  }
  const wantDigest = pins.filter((p) => p.ref.digest !== undefined).length;
  const haveDigest = collected.filter((p) => sameImage(p.ref.name) && p.ref.digest === target.digest).length;
  if (haveDigest < wantDigest) {
    throw new PinwatchError('repin-verify', `after the edit ${file} reads back ${haveDigest} pin(s) of ${target.repository}@${target.digest}, expected at least ${wantDigest}; not writing`, { file });
  }
}
