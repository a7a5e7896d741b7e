/**
 * The recovery of an interrupted write, started before a tree is checked or
 * derived (journal/ startRecovery: the journal finished or undone at once), and
 * where a killed run's temp files are looked for: in the listings of the scan's
 * walk when its record holds (every directory the scan walks, each as kept or as
 * listed again: the check has them already, so no process is started), else by
 * asking git (one `git ls-files --others` over the whole tree, beside the
 * derivation). stale/repo.ts starts it before its first look, and hands it to
 * deriveTree.
 */
import { startRecovery, tempsInListings, type Recovery, type RecoveryNote } from '../journal/index.js';
import type { RecordCheck } from '../util/tracked-fs.js';

/** Start the recovery of an interrupted write at `root` (finished before this resolves); `gitDir` as journal/ journalDir takes it. The look for temp files waits for staleTempsOf. */
export function startTreeRecovery(root: string, gitDir?: Promise<string | undefined>): Promise<Recovery> {
  return startRecovery(root, gitDir, 'later');
}

/**
 * The stale temp files removed, once (the first answer is every later one's):
 * those the walk's listings show when `walkCheck` (checkKept's, of the root
 * whose real path is `real`) holds, else those git lists.
 */
export function staleTempsOf(recovery: Recovery, walkCheck: RecordCheck | undefined, real: string): Promise<RecoveryNote[]> {
  return walkCheck?.holds && walkCheck.listings ? recovery.staleTempsAmong(tempsInListings(real, walkCheck.listings)) : recovery.staleTemps();
}
