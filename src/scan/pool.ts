/**
 * Read and collect many files on worker threads: batches from a shared queue,
 * results stored by index so the order never depends on timing. Only used from
 * the built package (the worker is dist/scan/collect-worker.js) and only for
 * large trees; any worker failure makes the caller redo the work in-process.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FileOutcome, FileTask } from './read-collect.js';

/** Below this many files a pool costs more (worker start-up) than it saves. */
export const POOL_MIN_FILES = 400;
const MAX_WORKERS = 4;
const BATCH = 50;

const workerUrl = new URL('./collect-worker.js', import.meta.url);

/** Workers to use for `fileCount` files: 0 means run in-process. */
export function autoWorkerCount(fileCount: number): number {
  if (fileCount < POOL_MIN_FILES || !existsSync(fileURLToPath(workerUrl))) return 0;
  const n = Math.min(availableParallelism(), MAX_WORKERS);
  return n > 1 ? n : 0;
}

export function workersAvailable(): boolean {
  return existsSync(fileURLToPath(workerUrl));
}

export async function collectInWorkers(tasks: FileTask[], firstParty: readonly string[], workers: number): Promise<FileOutcome[]> {
  const outcomes: FileOutcome[] = new Array(tasks.length);
  let next = 0;
  const pool = Array.from({ length: Math.min(workers, Math.ceil(tasks.length / BATCH)) }, () => new Worker(workerUrl, { workerData: { firstParty: [...firstParty] } }));
  try {
    await Promise.all(
      pool.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const send = () => {
              if (next >= tasks.length) return resolve();
              const start = next;
              next = Math.min(tasks.length, next + BATCH);
              worker.postMessage({ id: start, tasks: tasks.slice(start, next) });
            };
            worker.on('message', (msg: { id: number; outcomes: FileOutcome[] }) => {
              msg.outcomes.forEach((o, i) => (outcomes[msg.id + i] = o));
              send();
            });
            worker.on('error', reject);
            worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`scan worker exited with code ${code}`))));
            send();
          }),
      ),
    );
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
  if (outcomes.some((o) => o === undefined)) throw new Error('scan worker pool lost results');
  return outcomes;
}
