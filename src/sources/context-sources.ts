/**
 * From a parsed Dockerfile to the build-context paths it reads: COPY/ADD
 * sources (not `--from` stages or images, not URLs or git), and `RUN
 * --mount=type=bind` sources, in the stages the target needs. Also builds the
 * container-path → repo-path map that Go narrowing uses to locate `go build`
 * packages.
 */
import { posix } from 'node:path';
import type { CopyOp, Mount, ParsedDockerfile, RunOp, Stage } from '../dockerfile/parse.js';
import { stagesByRef } from '../dockerfile/stages.js';
import { commandWords, simpleCommandWords } from './go/command.js';
import { isGlob } from './matcher.js';
import { readdirOnce } from './memo.js';
import { compileGlob, globBase } from '../util/glob.js';
import { pathKind, repoJoin } from './paths.js';
import type { InputKind } from './types.js';

export interface ContextSource {
  /** Repo-relative path or glob (`.` for the repo root). */
  path: string;
  kind: InputKind;
  stage: number;
  line: number;
  /** `COPY go.mod (Dockerfile:5)`. */
  why: string;
}

export interface ContextScan {
  sources: ContextSource[];
  steps: string[];
  /** The sources (`COPY bin/app (Dockerfile:9)`) whose path the working tree does not have: made before the build, by something else. */
  missing: { path: string; text: string }[];
}

/** Context-relative source → repo-relative path, clamped inside the context. */
export function contextPath(context: string, source: string): { path: string; escaped: boolean } {
  const rel = posix.normalize(`/${source}`).slice(1);
  const relative = posix.normalize(source.replace(/^\/+/, ''));
  const escaped = relative === '..' || relative.startsWith('../');
  return { path: repoJoin(context, rel), escaped };
}

async function sourceKind(repoRoot: string, path: string): Promise<{ kind: InputKind; missing: boolean }> {
  if (isGlob(path)) return { kind: 'glob', missing: await globMatchesNothing(repoRoot, path) };
  const k = await pathKind(repoRoot, path);
  return { kind: k === 'file' ? 'file' : 'tree', missing: k === 'missing' };
}

/**
 * A glob source (`bin/manager_*`, an ARG with no value matched as `*`) that matches nothing: its
 * base directory is missing, or a last-part glob names no entry of it. A deeper glob is taken as
 * matching (not listed).
 */
async function globMatchesNothing(repoRoot: string, path: string): Promise<boolean> {
  const base = globBase(path);
  if ((await pathKind(repoRoot, base === '' ? '.' : base)) !== 'dir') return true;
  const rest = base === '' ? path : path.slice(base.length + 1);
  if (rest.includes('/')) return false;
  const match = compileGlob([rest]);
  try {
    return !(await readdirOnce(posix.join(repoRoot, base))).some((e) => match(e.name));
  } catch {
    return true;
  }
}

function describeOp(op: CopyOp, dockerfileName: string): string {
  const flags = op.from !== undefined ? ` --from=${op.from}` : '';
  return `${op.keyword}${flags} ${[...op.sources, ...op.dropped.map((d) => d.source)].join(' ')} ${op.dest} (${dockerfileName}:${op.line})`;
}

async function scanCopy(repoRoot: string, context: string, stages: readonly Stage[], stage: Stage, op: CopyOp, name: string, out: ContextScan): Promise<void> {
  for (const d of op.dropped) out.steps.push(`${op.keyword} ${d.source} (${name}:${op.line}): ${d.reason}, not a build-context input`);
  if (op.from !== undefined) {
    if (stagesByRef(stages, op.from).length === 0) out.steps.push(`${describeOp(op, name)}: copies from image ${op.from}, not from the build context`);
    return;
  }
  if (op.unresolved.length > 0) out.steps.push(`${describeOp(op, name)}: no value for ${op.unresolved.map((v) => `$${v}`).join(', ')}; matched as *`);
  if (op.excludes.length > 0) out.steps.push(`${describeOp(op, name)}: --exclude=${op.excludes.join(',')} not applied (the excluded paths stay inputs)`);
  for (const source of op.sources) {
    const { path, escaped } = contextPath(context, source);
    if (escaped) out.steps.push(`${op.keyword} ${source} (${name}:${op.line}) points outside the context; read as ${path}`);
    const { kind, missing } = await sourceKind(repoRoot, path);
    if (missing) {
      out.steps.push(`${op.keyword} ${source} (${name}:${op.line}): ${path} ${kind === 'glob' ? 'matches nothing' : 'does not exist'} in the working tree; kept as an input`);
      out.missing.push({ path, text: `${op.keyword} ${source} (${name}:${op.line}): ${path}` });
    }
    out.sources.push({ path, kind, stage: stage.index, line: op.line, why: `${op.keyword} ${source} (${name}:${op.line})` });
  }
}

/** The downloader a RUN runs (`curl`, `wget`, `git clone`): worth saying in `explain`, not a repo input. */
function networkFetch(command: string): string | undefined {
  for (const { words } of simpleCommandWords(command)) {
    const [first, second] = commandWords(words);
    const name = first?.split('/').pop();
    if (name === 'curl' || name === 'wget') return name;
    if (name === 'git' && (second === 'clone' || second === 'fetch')) return `git ${second}`;
  }
  return undefined;
}

async function scanRun(repoRoot: string, context: string, stages: readonly Stage[], stage: Stage, op: RunOp, name: string, out: ContextScan): Promise<void> {
  const fetch = networkFetch(op.command);
  if (fetch) out.steps.push(`RUN (${name}:${op.line}) downloads with ${fetch}: what it fetches is not a repository input (pinned only by what the Dockerfile spells)`);
  for (const m of op.mounts) {
    if (m.type !== 'bind') continue;
    if (m.from !== undefined && stagesByRef(stages, m.from).length > 0) continue;
    if (m.from !== undefined) {
      out.steps.push(`RUN --mount=type=bind,from=${m.from} (${name}:${op.line}): mounts image ${m.from}, not the build context`);
      continue;
    }
    const source = m.source === '' ? '.' : m.source;
    const { path } = contextPath(context, source);
    const { kind, missing } = await sourceKind(repoRoot, path);
    if (missing) {
      out.steps.push(`RUN --mount source=${source} (${name}:${op.line}): ${path} does not exist in the working tree; kept as an input`);
      out.missing.push({ path, text: `RUN --mount source=${source} (${name}:${op.line}): ${path}` });
    }
    out.sources.push({ path, kind, stage: stage.index, line: op.line, why: `RUN --mount=type=bind,source=${source} (${name}:${op.line})` });
  }
}

/** Context inputs of the needed stages, in file order. */
export async function scanContextSources(repoRoot: string, context: string, parsed: ParsedDockerfile, needed: Stage[], name: string): Promise<ContextScan> {
  const out: ContextScan = { sources: [], steps: [], missing: [] };
  for (const stage of needed) {
    for (const op of stage.ops) {
      if (op.op === 'copy') await scanCopy(repoRoot, context, parsed.stages, stage, op, name, out);
      else await scanRun(repoRoot, context, parsed.stages, stage, op, name, out);
    }
  }
  return out;
}

/** One entry of the container → repo map: `repo` undefined when the content came from a stage or image. */
export interface ContainerMapping {
  container: string;
  repo?: string;
  origin: string;
}

function trimSlash(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

async function copyMappings(repoRoot: string, context: string, op: CopyOp): Promise<ContainerMapping[]> {
  const out: ContainerMapping[] = [];
  const destIsDir = op.dest.endsWith('/') || op.sources.length > 1;
  const dest = trimSlash(op.dest);
  if (op.from !== undefined) return [{ container: dest, origin: `--from=${op.from} (line ${op.line})` }];
  for (const source of op.sources) {
    const { path } = contextPath(context, source);
    if (isGlob(path)) {
      out.push({ container: dest, repo: repoJoin(posix.dirname(path)), origin: `${op.keyword} ${source}` });
      continue;
    }
    const kind = await pathKind(repoRoot, path);
    const target = kind === 'file' && destIsDir ? posix.join(dest, posix.basename(path)) : dest;
    out.push({ container: target, repo: path, origin: `${op.keyword} ${source}` });
  }
  return out;
}

function mountMappings(context: string, workdir: string, mounts: Mount[]): ContainerMapping[] {
  return mounts
    .filter((m) => m.type === 'bind')
    .map((m) => ({
      container: trimSlash(posix.resolve(workdir, m.target || '.')),
      repo: m.from === undefined ? contextPath(context, m.source || '.').path : undefined,
      origin: `RUN --mount=type=bind${m.from !== undefined ? `,from=${m.from}` : ''}`,
    }));
}

/** The container → repo map in effect at a RUN of `chain[0]` (the chain is the stage and its FROM bases). */
export async function containerMap(repoRoot: string, context: string, chain: Stage[], run: RunOp): Promise<ContainerMapping[]> {
  const out: ContainerMapping[] = [];
  for (const stage of [...chain].reverse()) {
    for (const op of stage.ops) {
      if (op === run) {
        out.push(...mountMappings(context, run.workdir, run.mounts));
        return out;
      }
      if (op.op === 'copy') out.push(...(await copyMappings(repoRoot, context, op)));
    }
  }
  return out;
}

/** Map an absolute container path to a repo path, or say where it came from instead. */
export function toRepoPath(map: readonly ContainerMapping[], containerPath: string): { path: string } | { reason: string } {
  let best: ContainerMapping | undefined;
  for (const m of map) {
    const within = m.container === '/' || containerPath === m.container || containerPath.startsWith(`${m.container}/`);
    if (within && (!best || m.container.length >= best.container.length)) best = m;
  }
  if (!best) return { reason: `${containerPath} is not copied from the build context` };
  if (best.repo === undefined) return { reason: `${containerPath} comes from ${best.origin}, not from the build context` };
  const rest = containerPath === best.container ? '' : containerPath.slice(best.container === '/' ? 1 : best.container.length + 1);
  return { path: repoJoin(best.repo, rest) };
}
