/** Skaffold configs (barrel): the artifacts a skaffold.yaml builds, read from text. */
export { parseSkaffold, type SkaffoldArtifact, type SkaffoldFile, type SkaffoldProblem, type SkaffoldRequire } from './parse.js';
