/**
 * Read and collect many files on worker threads: batches from a shared queue,
 * results stored by index so the order never depends on timing. Opt-in
 * (`scanRepo(root, config, { workers: n })`) and only from the built package (the
 * worker is dist/scan/collect-worker.js); any worker failure makes the caller redo
 * the work in-process. Not the default: on the 2-core benchmark machine, worker
 * start-up (module load + a cold JIT per isolate) cost more than it saved.
 * `node:worker_threads` is loaded only when workers are asked for (about 3 ms
 * of every scan's start-up otherwise).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FileOutcome, FileTask } from './read-collect.js';

const BATCH = 50;

const workerUrl = new URL('./collect-worker.js', import.meta.url);

/** True when the worker script exists (the built package, not the TypeScript sources). */
export function workersAvailable(): boolean {
  return existsSync(fileURLToPath(workerUrl));
}

export async function collectInWorkers(tasks: FileTask[], firstParty: readonly string[], workers: number): Promise<FileOutcome[]> {
  const { Worker } = process.getBuiltinModule('node:worker_threads'); // no import(): it would start the ESM loader in the CommonJS bin
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
