/** All-or-nothing multi-file writes and their recovery (barrel). */
export { journalDir, recoverInterruptedWrites, startRecovery, writeFilesTogether, RECOVERY_CODES } from './journal.js';
export type { PlannedWrite, RecoveryNote } from './journal.js';
