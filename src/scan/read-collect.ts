/**
 * One file, read and collected: the unit of work the scan runs in-process or in
 * a worker thread. Never throws: a collector crash becomes a problem.
 */
import { collectFile } from '../collect/index.js';
import type { CollectResult, FileKind } from '../collect/types.js';
import { isFirstParty } from '../model/index.js';
import { readTextFile } from './read.js';
import type { SkippedFile } from './types.js';

export interface FileTask {
  file: string;
  abs: string;
  kind: FileKind;
}

export type FileOutcome = { skipped: SkippedFile } | { result: CollectResult };

export function readAndCollect(task: FileTask, firstParty: readonly string[]): FileOutcome {
  const read = readTextFile(task.abs, task.file);
  if ('skipped' in read) return read;
  try {
    return { result: collectFile(task.kind, read.text, { file: task.file, isFirstParty: (repo) => isFirstParty(repo, firstParty) }) };
  } catch (e) {
    const reason = `internal error in the ${task.kind} collector: ${(e as Error).message}`;
    return { result: { pins: [], problems: [{ file: task.file, code: 'collector-error', reason }] } };
  }
}
