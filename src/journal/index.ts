/** All-or-nothing multi-file writes and their recovery (barrel). */
export { journalDir, recoverInterruptedWrites, startRecovery, tempsInListings, writeFilesTogether, RECOVERY_CODES, type Recovery } from './journal.js';
export type { PlannedWrite, RecoveryNote } from './journal.js';
