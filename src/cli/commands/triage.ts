/** What `pinwatch triage` does when it runs (declared in ../program.ts, loaded only when it runs). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { appendStepSummary, emit } from '../output.js';
import { loadCommandConfig } from '../config.js';
import { PinwatchError } from '../../errors.js';
import { logLines, triageLog } from '../../triage/index.js';
import { formatTriageJson } from '../../report/triage-json.js';
import { formatTriageText } from '../../report/triage-text.js';
import { formatTriageMarkdown } from '../../report/triage-markdown.js';
import { formatTriageGithub } from '../../report/triage-github.js';
import { COMMAND_FORMATS } from '../formats.js';
import { podsFromFlags } from './running.js';
import type { Config } from '../../config/types.js';
import { runningBuilds, type RunningReport } from '../../running/index.js';

const FORMATS = COMMAND_FORMATS.triage;

export interface TriageFlags {
  since?: string;
  minLiteral?: string;
  pods?: string;
  kubectl?: boolean;
  context?: string;
  namespace?: string;
  allNamespaces?: boolean;
}

/** `--pods`/`--kubectl`: what the pod list runs, through running's engine; undefined without them (the pins' builds). */
async function runningFromFlags(ctx: CommandContext, files: string[], flags: TriageFlags, config: Config): Promise<RunningReport | undefined> {
  if (flags.pods === undefined && !flags.kubectl && !flags.context && !flags.namespace && !flags.allNamespaces) return undefined;
  if (flags.pods === '-' && (files.length === 0 || files.includes('-'))) {
    throw new PinwatchError('conflicting-options', 'the log and --pods cannot both come from standard input; give the log as a file (pinwatch triage lane.log --pods -) or the pods as a file (--pods pods.json)');
  }
  const pods = await podsFromFlags(ctx, flags);
  return runningBuilds(ctx.global.repo, config, pods);
}

async function readStdin(ctx: CommandContext): Promise<string> {
  if (ctx.io.readStdin) return ctx.io.readStdin();
  try {
    return readFileSync(0, 'utf8');
  } catch (e) {
    throw new PinwatchError('log-unreadable', `cannot read the log from standard input: ${(e as Error).message}`);
  }
}

async function readLogs(ctx: CommandContext, files: string[]): Promise<[string, string][]> {
  const names = files.length === 0 ? ['-'] : files;
  const out: [string, string][] = [];
  for (const name of names) {
    if (name === '-') {
      out.push(['-', await readStdin(ctx)]);
      continue;
    }
    try {
      out.push([name, readFileSync(resolve(ctx.io.cwd, name), 'utf8')]);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (e as Error).message;
      throw new PinwatchError('log-unreadable', `cannot read the log ${JSON.stringify(name)}: ${why}; expected a log file, or - for standard input`);
    }
  }
  return out;
}

export async function runTriage(ctx: CommandContext, files: string[], flags: TriageFlags): Promise<number> {
  const format = pickFormat(ctx, FORMATS, 'text');
  const raw = flags.minLiteral ?? '12';
  const minConstant = Number(raw);
  if (!/^\d+$/.test(raw) || minConstant < 4) throw new PinwatchError('invalid-min-literal', `--min-literal must be a whole number of at least 4, like --min-literal 12; saw ${JSON.stringify(raw)}`);
  const config = await loadCommandConfig(ctx);
  const lines = logLines(await readLogs(ctx, files));
  const running = await runningFromFlags(ctx, files, flags, config);
  const report = await triageLog(ctx.global.repo, config, lines, { minConstant, ...(flags.since !== undefined ? { since: flags.since } : {}), ...(running ? { running } : {}) });
  if (format === 'json') emit(ctx, formatTriageJson(report));
  else if (format === 'markdown') emit(ctx, formatTriageMarkdown(report));
  else if (format === 'github') {
    emit(ctx, formatTriageGithub(report));
    appendStepSummary(ctx, formatTriageMarkdown(report));
  } else emit(ctx, formatTriageText(report));
  return report.summary.skew > 0 ? 1 : 0;
}
