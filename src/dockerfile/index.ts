/** The one Dockerfile reader (a leaf like reference/): lexer, variable substitution, stages. */
export { lexDockerfile, heredocMarkers, argsSpan } from './lexer.js';
export type { Heredoc, LexedDockerfile, RawInstruction } from './lexer.js';
export { parseDockerfile, parseLexed, splitWords, joinPath } from './parse.js';
export type { CopyOp, Mount, ParsedDockerfile, RunOp, Stage, StageOp } from './parse.js';
export { baseChain, neededStages, stageByRef, stageDependencies, stagesByRef } from './stages.js';
export type { TargetResult } from './stages.js';
export { expandVariables } from './substitute.js';
export type { Expansion } from './substitute.js';
export { buildArgsOf } from './build-args.js';
