/** `pinwatch running`: what the cluster runs against the tree and its history (barrel). */
export * from './types.js';
export { identify, judge, findRollouts, historyKey } from './engine.js';
export { parsePodsText, parseImageID, workloadOf } from './pods.js';
export { readPods, readPodsFromKubectl, type ReadPodsOptions, type KubectlOptions } from './pods-read.js';
export { runningBuilds, type RunningOptions } from './repo.js';
export { runningFails, runningExitCode, type RunningPolicy, type FailOnRunning } from './policy.js';
