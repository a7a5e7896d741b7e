/**
 * Recognises an image build command — `docker buildx build`, `docker build`,
 * `docker image build`, `buildah bud|build`, `podman build`, `nerdctl build` —
 * and reads its context, Dockerfile, target stage, tags and metadata files.
 */
import * as path from 'node:path';
import type { MadeFile } from './made.js';
import { readableMarkers } from '../make/index.js';
import type { KoRequest } from './ko/index.js';

export interface FoundBuild {
  tool: string;
  /** Absolute context directory ('' when the context is not a directory, e.g. `-` or a URL). */
  context: string;
  contextArg?: string;
  /** Absolute Dockerfile path (undefined: default in the context). */
  dockerfile?: string;
  /**
   * Which of the two was spelled from `/` (an absolute argument, or a relative one in a folder reached so:
   * `cd /tmp/x`, an absolute `working-directory`): outside the repository it is shown as that path, not
   * relative to wherever the repository is checked out (SubMake.fromSlash).
   */
  fromSlash?: { context?: true; dockerfile?: true };
  stage?: string;
  tags: string[];
  /** `--metadata-file`/`--iidfile` values, as written: later commands read the digest from them. */
  outputs: string[];
  command: string;
  source: { file: string; line: number };
  order: number;
  /** Files a `--build-arg` value reads (`V=$(cat .go-version)`, Make's `$(shell cat …)`), absolute. */
  argFiles?: { arg: string; abs: string; fromSlash?: true }[];
  /** What earlier lines of its recipe made (`cp … DEST`, `go build -o OUT`) that the build may read (made.ts). */
  madeBefore?: MadeFile[];
  /** Set for a ko build (`ko build`, `ko resolve -f`): resolved against the tree by ko/recipe.ts. */
  ko?: KoRequest;
}

/** Flags of docker/buildx/buildah/podman build that take a value as the next argument. */
const VALUE_FLAGS = new Set([
  '-f', '--file', '-t', '--tag', '--target', '--build-arg', '--build-arg-file', '--build-context', '--platform', '--label',
  '--cache-from', '--cache-to', '--metadata-file', '-o', '--output', '--builder', '--secret', '--ssh', '--progress',
  '--iidfile', '--network', '--add-host', '--annotation', '--attest', '--shm-size', '--ulimit', '--allow', '--cgroup-parent',
  '--call', '--provenance', '--sbom', '--isolation', '-m', '--memory', '--memory-swap', '--cpu-shares', '--cpu-period',
  '--cpu-quota', '--cpuset-cpus', '--cpuset-mems', '--format', '--authfile', '--creds', '--cert-dir', '--os', '--arch',
  '--variant', '--jobs', '--manifest', '--timestamp', '--source-date-epoch', '--cache-ttl', '--device', '--dns',
  '--dns-option', '--dns-search', '--runtime', '--userns', '--volume', '-v', '--env', '--security-opt', '--logfile',
  '--sign-by', '--signature-policy', '--retry', '--retry-delay', '--layer-label', '--unsetenv', '--unsetlabel', '--hooks-dir',
]);

/** Where the build subcommand's own arguments start, or -1 when argv is not a build. */
function buildArgsStart(argv: string[]): { tool: string; start: number } | undefined {
  const base = path.posix.basename(argv[0] ?? '');
  const a1 = argv[1];
  const a2 = argv[2];
  if (base === 'docker' || base === 'nerdctl' || base === 'podman') {
    if (a1 === 'buildx' && (a2 === 'build' || a2 === 'b')) return { tool: `${base} buildx build`, start: 3 };
    if (a1 === 'build' || a1 === 'builder' && a2 === 'build') return { tool: `${base} build`, start: a1 === 'build' ? 2 : 3 };
    if (a1 === 'image' && a2 === 'build') return { tool: `${base} image build`, start: 3 };
  }
  if (base === 'buildah' && (a1 === 'bud' || a1 === 'build' || a1 === 'build-using-dockerfile')) return { tool: `buildah ${a1}`, start: 2 };
  return undefined;
}

export function readBuild(argv: string[], dir: string, command: string, source: { file: string; line: number }, order: number, dirFromSlash = false): FoundBuild | undefined {
  const head = buildArgsStart(argv);
  if (!head) return undefined;
  const build: FoundBuild = { tool: head.tool, context: '', tags: [], outputs: [], command, source, order };
  const spelled = (which: 'context' | 'dockerfile', arg: string) => {
    if (dirFromSlash || path.isAbsolute(arg)) (build.fromSlash ??= {})[which] = true;
    else if (build.fromSlash) delete build.fromSlash[which];
  };
  const positional: string[] = [];
  const args = argv.slice(head.start);
  for (let i = 0; i < args.length; i++) {
    const raw = args[i]!;
    const eq = raw.startsWith('--') ? raw.indexOf('=') : -1;
    const flag = eq === -1 ? raw : raw.slice(0, eq);
    const shortJoined = /^-[ft]./.test(raw) && !raw.startsWith('--') ? raw.slice(0, 2) : undefined;
    if (!raw.startsWith('-') || raw === '-') {
      positional.push(raw);
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = raw.slice(eq + 1);
    else if (shortJoined) value = raw.slice(2);
    else if (VALUE_FLAGS.has(flag)) value = args[++i];
    const name = shortJoined ?? flag;
    if (value === undefined) continue;
    if (name === '-f' || name === '--file') {
      build.dockerfile = path.resolve(dir, value);
      spelled('dockerfile', value);
    }
    else if (name === '-t' || name === '--tag') build.tags.push(value);
    else if (name === '--target') build.stage = value;
    else if (name === '--build-arg') {
      const eqAt = value.indexOf('=');
      for (const f of filesRead(eqAt === -1 ? '' : value.slice(eqAt + 1))) (build.argFiles ??= []).push({ arg: value.slice(0, eqAt), abs: path.resolve(dir, f), ...(dirFromSlash || path.isAbsolute(f) ? { fromSlash: true as const } : {}) });
    }
    else if (name === '--metadata-file' || name === '--iidfile') build.outputs.push(value);
  }
  const ctx = positional.at(-1);
  if (ctx !== undefined) {
    build.contextArg = ctx;
    if (ctx !== '-' && !/^[a-z]+:\/\//.test(ctx) && !ctx.startsWith('git@')) {
      build.context = path.resolve(dir, ctx);
      spelled('context', ctx);
    }
  }
  if (build.fromSlash && Object.keys(build.fromSlash).length === 0) delete build.fromSlash;
  return build;
}

/**
 * Files a value reads through a command substitution: `$(cat F)`, `` `cat F` ``,
 * `$(< F)`, `$(head -n1 F)`, `$(tr -d x < F)`, and Make's `$(shell cat F)` once
 * expanded (a `⟨shell …⟩` marker).
 */
export function filesRead(value: string): string[] {
  const subs: string[] = [];
  // innermost `⟨shell …⟩` only: a command holding another marker reads a file named by an unknown value
  for (const m of readableMarkers(value).matchAll(/⟨shell ([^⟨⟩]*)⟩|\$\(([^()]*)\)|`([^`]*)`/g)) subs.push((m[1] ?? m[2] ?? m[3])!);
  const out: string[] = [];
  for (const sub of subs) {
    for (const part of sub.split(/[|;&]/)) {
      const words = part.trim().split(/\s+/).map((w) => w.replace(/^(["'])(.*)\1$/, '$2'));
      for (let i = 0; i < words.length; i++) {
        const w = words[i]!;
        if (w === '<' && words[i + 1]) out.push(words[++i]!);
        else if (w.startsWith('<') && w.length > 1) out.push(w.slice(1));
      }
      const cmd = path.posix.basename(words[0] ?? '');
      if (['cat', 'head', 'tail'].includes(cmd)) {
        for (let i = 1; i < words.length; i++) {
          const w = words[i]!;
          if (w === '<' || w.startsWith('<')) break;
          if (/^-[nc]$/.test(w)) i++;
          else if (!w.startsWith('-') && w !== '') out.push(w);
        }
      }
    }
  }
  // a marker's text cut short (`…`) names no file
  return [...new Set(out.filter((f) => !f.includes('$') && !f.includes('⟨') && !f.includes('…')))];
}

/** A word as the shell would need it written (single-quoted unless plain), for recipe command lines shown to people. */
export function shellWord(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./⟨⟩\u00a0-\uffff-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** The fields of a build a declarative recipe (a bake target, a compose service) describes. */
export interface DeclaredBuild {
  /** `docker buildx bake`, `docker compose build`. */
  tool: string;
  /** The target or service, named in `command`. */
  name: string;
  /** Absolute context ('' when remote or not evaluable) and the context as written. */
  contextAbs: string;
  contextArg: string;
  /** The Dockerfile as written (`--file`) and resolved. */
  fileArg?: string;
  dockerfile?: string;
  stage?: string;
  args: string[];
  platforms: string[];
  tags: string[];
  source: { file: string; line: number };
}

/** A declarative recipe as the FoundBuild of the equivalent `docker buildx build` command. */
export function foundBuildOf(d: DeclaredBuild): FoundBuild {
  const argv = [
    'docker', 'buildx', 'build',
    ...(d.fileArg ? ['--file', d.fileArg] : []),
    ...(d.stage ? ['--target', d.stage] : []),
    ...d.args.flatMap((a) => ['--build-arg', a]),
    ...(d.platforms.length ? ['--platform', d.platforms.join(',')] : []),
    ...d.tags.flatMap((t) => ['--tag', t]),
    d.contextArg,
  ];
  return {
    tool: d.tool,
    context: d.contextAbs,
    contextArg: d.contextArg,
    ...(d.dockerfile ? { dockerfile: d.dockerfile } : {}),
    ...(d.stage ? { stage: d.stage } : {}),
    tags: d.tags,
    outputs: [],
    command: `${d.tool} ${d.name}: ${argv.map(shellWord).join(' ')}`,
    source: d.source,
    order: 0,
  };
}
