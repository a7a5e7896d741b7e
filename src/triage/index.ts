/** `pinwatch triage`: from a log line to its source, its images and what their builds lack (public API of src/triage). */
export { triageLog, logLines, readLiteralIndex, parseLsTree, MAX_SOURCE_BYTES } from './repo.js';
export type { TriageOptions } from './repo.js';
export { buildLiteralIndex, matchLine, matchLog, judgeLog, judgeLine, lineTokens, lacksForPackage, mentionsIn, DEFAULT_MIN_CONSTANT } from './engine.js';
export type { LiteralIndex, LiteralHit, LogLine, SourceFile, Ancestry } from './engine.js';
export { extractLiterals, extractLineLiterals, compilePattern, matchPattern, isSpecific, languageOf } from './literals.js';
export type { LiteralLanguage, LiteralPattern, SourceLiteral } from './literals.js';
export { stripFraming, looksLikeError } from './framing.js';
export { buildPrefilter } from './prefilter.js';
export { parseLiteralLog, literalHistories } from './history.js';
export type { HistoryCommit, LiteralHistory, LiteralEvent } from './history.js';
export type * from './types.js';
export { runningImageBuilds, describeRunningIn } from './running.js';
export type { RunningBuild } from './running.js';
