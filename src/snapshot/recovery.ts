/**
 * The recovery of an interrupted write, started before a tree is checked or
 * derived (journal/ startRecovery: the journal finished or undone at once, the
 * look for a killed run's temp files under way meanwhile). stale/repo.ts starts
 * it before its first look, and hands it to deriveTree.
 */
import { startRecovery } from '../journal/index.js';

/** An interrupted write's recovery, started (journal/ startRecovery), with its look for a killed run's temp files under way. */
export interface StartedRecovery {
  started: Awaited<ReturnType<typeof startRecovery>>;
  temps: Promise<Awaited<ReturnType<Awaited<ReturnType<typeof startRecovery>>['staleTemps']>>>;
}

/** Start the recovery of an interrupted write at `root` (finished before this resolves) and the look for stale temp files; `gitDir` as journal/ journalDir takes it. */
export async function startTreeRecovery(root: string, gitDir?: Promise<string | undefined>): Promise<StartedRecovery> {
  const started = await startRecovery(root, gitDir);
  return { started, temps: started.staleTemps() };
}
