/**
 * The pinwatch library: everything the CLI does, importable. The CLI in
 * src/cli/ is a thin face over these functions.
 *
 *   import { loadConfig, scanRepo, lintRepo, staleReport, checkRepo } from 'pinwatch';
 */
export { PinwatchError, isPinwatchError, PINWATCH_ERROR_CODES, type PinwatchErrorCode } from './errors.js';
export * from './reference/index.js';
export * from './model/index.js';

// config and the tree
export { loadConfig, parseConfigText, defaultConfig, configJsonSchema, CONFIG_FILE_NAME } from './config/index.js';
export type * from './config/types.js';
export { scanRepo, walkTree } from './scan/index.js';
// the persistent cache: off for library calls unless configured (configureCache({ enabled: true }))
export { configureCache, cacheFor, openCache, cacheInfo, clearCache, type Cache, type CacheOptions, type CacheInfo } from './cache/index.js';
export type * from './scan/types.js';
export { collectFile, collectYaml, collectTagFile, collectDockerfile, scrapeText } from './collect/index.js';
export type { CollectContext, CollectResult, FileKind } from './collect/index.js';

// build knowledge
export { loadBuildModel, producersFor, recipesFor, describeProducers } from './producers/index.js';
export type * from './producers/types.js';
export { deriveBuildInputs, inputMatcher } from './sources/index.js';
export type { BuildInputsRequest, InputMatcher } from './sources/index.js';
export type * from './sources/types.js';

// the commands as functions
export { lint, lintRepo, lintScanned, exitCodeFor, writeBaselineFile } from './lint/index.js';
export { LINT_RULES } from './rules/index.js';
export { staleReport, computeStale, staleFindings, staleExitCode, STALE_RULES } from './stale/index.js';
export type { StaleReport, StaleImage, UnshippedCommit } from './stale/index.js';
export { computeAffected, affectedReport } from './affected/index.js';
export { explainImage } from './explain/index.js';
export { checkRepo } from './check/index.js';
export type { CheckOptions, CheckResult } from './check/index.js';
export { runOverlay } from './overlay/index.js';
export type { OverlayOptions, OverlayReport } from './overlay/index.js';
export { repin, repinExitCode } from './repin/index.js';
export type { RepinOptions } from './repin/index.js';
export { runningBuilds, readPods, readPodsFromKubectl, parsePodsText, runningExitCode, runningFails } from './running/index.js';
export type { PodList, PodContainer, RunningReport, RunningContainer, RunningStatus, Rollout, RunningOptions } from './running/index.js';
export { canonicalRepository, firstPartyPrefixes } from './config/index.js';
export { RegistryClient, RegistryError, registryProvenance } from './registry/index.js';
export { copyImage, copyBlob, putManifest, blobExists, manifestDigestIfPresent, verifyImage } from './registry/index.js';
export { promote, promoteExitCode, mirror, mirrorExitCode, compare, compareExitCode } from './release/index.js';
export type { PromoteOptions, PromoteResult, MirrorOptions, MirrorResult, CompareOptions as ReleaseCompareOptions, CompareResult } from './release/index.js';
export { editYaml, applySpans } from './edit/index.js';
export { triageLog, logLines, buildLiteralIndex, matchLine, stripFraming, extractLiterals, compilePattern } from './triage/index.js';
export type { TriageReport, TriageLine, TriageMatch, TriageVerdict, TriageOptions, ImageBuild } from './triage/index.js';

// formatters (pure: findings in, text out)
export { formatFindings, FINDINGS_FORMATS } from './report/findings-format.js';
export { formatHtmlReport } from './report/html.js';
export { resolveLinks, webUrlOfRemote, expandLink, type RepoLinks, type LinkTemplates } from './report/links.js';
export { readRemoteUrl } from './git/remote.js';
export { formatTriageText } from './report/triage-text.js';
export { formatTriageJson } from './report/triage-json.js';
