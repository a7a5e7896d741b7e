/** What `pinwatch running` does when it runs (declared in ../program.ts, loaded only when it runs). */
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { appendStepSummary, emit } from '../output.js';
import { loadCommandConfig } from '../config.js';
import { registryOptions, type RegistryFlags } from '../flags/registry.js';
import { COMMAND_FORMATS } from '../formats.js';
import { PinwatchError } from '../../errors.js';
import { readPods, readPodsFromKubectl, runningBuilds, runningExitCode, type FailOnRunning, type PodList, type RunningPolicy } from '../../running/index.js';
import { formatRunningJson } from '../../report/running-json.js';
import { formatRunningText } from '../../report/running-text.js';
import { formatRunningMarkdown } from '../../report/running-markdown.js';
import { formatRunningGithub } from '../../report/running-github.js';
import { terminalSafe } from '../../report/sanitize.js';

const FORMATS = COMMAND_FORMATS.running;
const SHALLOW_REFUSAL =
  '[shallow-clone] a first-party container could not be judged in this shallow clone: its build commit may lie beyond the boundary; fetch full history (git fetch --unshallow, or fetch-depth: 0)';

export interface RunningFlags extends RegistryFlags {
  pods?: string;
  kubectl?: boolean;
  context?: string;
  namespace?: string;
  allNamespaces?: boolean;
  failOnRunning?: string;
  registry?: boolean;
}

export function parseFailOnRunning(value: string | undefined): FailOnRunning {
  const v = value ?? 'fix';
  if (v === 'fix' || v === 'any' || v === 'never') return v;
  throw new PinwatchError('invalid-fail-on-running', `--fail-on-running must be fix, any or never; saw "${v}"`);
}

/** The pod list the flags name: `--pods PATH|-` or `--kubectl [--context] [-n|-A]`, exactly one. */
export async function podsFromFlags(ctx: CommandContext, flags: RunningFlags): Promise<PodList> {
  if (flags.pods !== undefined && flags.kubectl) throw new PinwatchError('conflicting-options', 'give --pods PATH or --kubectl, not both');
  if (!flags.kubectl && (flags.context || flags.namespace || flags.allNamespaces)) {
    throw new PinwatchError('conflicting-options', '--context, --namespace and --all-namespaces go with --kubectl; a --pods file already says its namespaces');
  }
  if (flags.namespace && flags.allNamespaces) throw new PinwatchError('conflicting-options', 'give --namespace NS or --all-namespaces, not both');
  if (flags.kubectl) {
    return readPodsFromKubectl({
      ...(flags.context ? { context: flags.context } : {}),
      ...(flags.namespace ? { namespace: flags.namespace } : {}),
      ...(flags.allNamespaces ? { allNamespaces: true } : {}),
      env: ctx.io.env,
    });
  }
  if (flags.pods === undefined) throw new PinwatchError('missing-option', 'running needs a pod list: --pods FILE|DIR|- (kubectl get pods -o json output) or --kubectl, e.g. `pinwatch running --pods pods.json`');
  return readPods(flags.pods, { cwd: ctx.io.cwd, ...(ctx.io.readStdin ? { stdin: ctx.io.readStdin } : {}) });
}

export async function runRunning(ctx: CommandContext, flags: RunningFlags): Promise<number> {
  const format = pickFormat(ctx, FORMATS, 'text');
  const policy: RunningPolicy = { failOnRunning: parseFailOnRunning(flags.failOnRunning) };
  const config = await loadCommandConfig(ctx);
  const pods = await podsFromFlags(ctx, flags);
  const report = await runningBuilds(ctx.global.repo, config, pods, flags.registry ? { registry: await registryOptions(config, ctx.io.env, flags) } : {});
  if (format === 'json') emit(ctx, formatRunningJson(report));
  else if (format === 'markdown') emit(ctx, formatRunningMarkdown(report));
  else if (format === 'github') {
    emit(ctx, formatRunningGithub(report, policy));
    appendStepSummary(ctx, formatRunningMarkdown(report));
  } else emit(ctx, formatRunningText(report));
  if (ctx.global.failOn === 'never') return 0;
  const code = runningExitCode(report, policy);
  if (code === 2) ctx.io.err(`pinwatch: ${terminalSafe(SHALLOW_REFUSAL)}\n`);
  return code;
}
