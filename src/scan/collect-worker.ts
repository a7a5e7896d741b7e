/** Worker thread body: read and collect batches of files sent by pool.ts. */
import { parentPort, workerData } from 'node:worker_threads';
import { readAndCollect, type FileTask } from './read-collect.js';

const firstParty = (workerData as { firstParty: string[] }).firstParty;

parentPort?.on('message', (batch: { id: number; tasks: FileTask[] }) => {
  parentPort?.postMessage({ id: batch.id, outcomes: batch.tasks.map((t) => readAndCollect(t, firstParty)) });
});
