/**
 * Turns one target's command facts into the model: a Producer when it writes
 * pins (writes sharing a value, or copying one another, share a refId — they
 * move in lockstep) and a BuildRecipe per image build, with the writes that
 * stamp that build's image.
 */
import { contentQuery, lstatSync, readdirSync, statSync } from '../util/tracked-fs.js';
import * as path from 'node:path';
import { readableMarkers, hasMarker } from '../make/index.js';
import { fileTypeName, readRegularText, type ReadRefusal } from '../util/safe-read.js';
import type { CommandFacts, FoundWrite } from './commands.js';
import type { FoundBuild } from './build-command.js';
import type { Problem } from '../model/index.js';
import { EditedFiles, LINES_QUERY, linesMatching } from './lines-query.js';
import { refOfTag } from './tag-ref.js';
import type { BuildRecipe, PinWrite, Producer, RecipeInput, RecipeKind } from './types.js';
import { koRecipes } from './ko/index.js';

export interface TargetFacts {
  makefile: string;
  target: string;
  line: number;
  facts: CommandFacts;
}

/** Repo-relative, forward slashes; undefined outside the repository. */
export function repoRelative(root: string, abs: string): string | undefined {
  const rel = path.relative(root, abs);
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/') || '.';
}

/**
 * Relative to the root even when outside it (`../..`), so a recipe path that
 * leaves the repository stays recognisably outside instead of reading as a
 * repo-relative path once its leading `/` is normalised away; outside it, a
 * path spelled from `/` is shown as that path (never relative to wherever the
 * repository is checked out: a finding's text and fingerprint must not depend on it).
 */
export function rootRelative(root: string, abs: string, fromSlash = false): string {
  return repoRelative(root, abs) ?? (fromSlash ? abs : path.relative(root, abs).split(path.sep).join('/'));
}

/** The producer for one target (undefined when it writes nothing), with its writes resolved. */
export function producerFor(root: string, t: TargetFacts, problems: Problem[], edited = new EditedFiles()): { producer?: Producer; writes: Map<FoundWrite, PinWrite> } {
  const id = `${t.makefile}:${t.target}`;
  const byKey = new Map<string, string>();
  const resolved = new Map<FoundWrite, PinWrite>();
  const done: { w: FoundWrite; pin: PinWrite }[] = [];
  const writes = t.facts.writes.flatMap((w) => expandUnknownPath(root, w, problems));
  for (const w of writes) {
    const file = writtenFile(root, w, problems);
    if (file === undefined) continue;
    const key = lockstepKey(root, w, done);
    let refId = byKey.get(key);
    if (!refId) {
      refId = key.startsWith('copy-of:') ? key : `${id}#${byKey.size + 1}`;
      byKey.set(key, refId);
    }
    const lines = w.lineFilter ? editedLines(edited, w.abs, file, w.lineFilter, w, problems) : undefined;
    const pin: PinWrite = { file, ...(w.keyPath !== undefined ? { keyPath: w.keyPath } : {}), via: w.via, refId, source: w.source, ...(lines ? { lines } : {}) };
    resolved.set(w, pin);
    done.push({ w, pin });
  }
  if (resolved.size === 0) return { writes: resolved };
  const producer: Producer = { id, makefile: t.makefile, target: t.target, line: t.line, writes: [...resolved.values()], built: false };
  return { producer, writes: resolved };
}

/**
 * A write whose file name holds an unknown part (`images/disk-⟨shell …⟩.tag`,
 * typically a `$(foreach)` over `$(shell …)` output) stands for every existing
 * file its pattern matches, each with its own value. Reported either way.
 */
function expandUnknownPath(root: string, w: FoundWrite, problems: Problem[]): FoundWrite[] {
  if (!hasMarker(w.abs)) return [w];
  const dir = path.dirname(w.abs);
  const where = { file: w.source.file, line: w.source.line };
  const shown = readableMarkers(repoRelative(root, w.abs) ?? w.abs);
  if (hasMarker(dir)) {
    problems.push({ ...where, code: 'producer-target-unknown', reason: `cannot tell which file this ${w.via} write goes to ("${shown}")` });
    return [];
  }
  const pattern = new RegExp(`^${path.basename(w.abs).split(/⟨[^⟩]*⟩/).map(escapeRegExp).join('[^/]*')}$`);
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => pattern.test(n)).sort();
  } catch {
    names = [];
  }
  const rel = repoRelative(root, dir) ?? dir;
  problems.push({
    ...where,
    code: names.length ? 'producer-target-guessed' : 'producer-target-unknown',
    reason: names.length
      ? `file name of this ${w.via} write is computed at build time ("${shown}"); took the ${names.length} existing file(s) in ${rel} that match`
      : `cannot tell which file this ${w.via} write goes to ("${shown}"), and no existing file matches`,
  });
  return names.map((n) => ({ ...w, abs: path.join(dir, n), value: `${w.value}\0${n}` }));
}

/**
 * Lines (1-based) of the file that match every filter; undefined (the whole file)
 * when it cannot be read or no line matches: a pattern that finds nothing today
 * says nothing about which pin the recipe stamps, so no pin loses its producer.
 * A regular file that cannot be read (too large, unreadable) is reported; a
 * missing or non-regular one is already reported by writtenFile.
 */
function editedLines(edited: EditedFiles, abs: string, rel: string, filters: RegExp[], w: FoundWrite, problems: Problem[]): number[] | undefined {
  // the tree-state snapshot keeps the answer, not the file's hash: a pin bumped on a matching line changes nothing here
  const args = JSON.stringify(filters.map((f) => [f.source, f.flags]));
  const found = contentQuery(abs, LINES_QUERY, args, () => linesMatching(abs, filters, edited), (a) => JSON.stringify(a));
  if ('refused' in found) {
    if (isFile(abs)) {
      problems.push({ file: w.source.file, line: w.source.line, code: 'producer-target-unreadable', reason: `${w.via} edits lines of "${rel}", which was not read (${found.refused.replace(/; not read$/, '')}); taken as writing the whole file` });
    }
    return undefined;
  }
  return found.lines;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Writes that copy an earlier write in the same target share its key; others group by written value. */
function lockstepKey(root: string, w: FoundWrite, done: { w: FoundWrite; pin: PinWrite }[]): string {
  if (w.copyOf) {
    const src = [...done].reverse().find((d) => d.w.abs === w.copyOf!.abs && d.w.keyPath === w.copyOf!.keyPath);
    if (src) return `value:${src.w.value}`;
    const rel = repoRelative(root, w.copyOf.abs) ?? w.copyOf.abs;
    return `copy-of:${rel}${w.copyOf.keyPath ? `#${w.copyOf.keyPath}` : ''}`;
  }
  return `value:${w.value}`;
}

function writtenFile(root: string, w: FoundWrite, problems: Problem[]): string | undefined {
  const rel = repoRelative(root, w.abs);
  const where = { file: w.source.file, line: w.source.line };
  if (hasMarker(w.abs)) {
    problems.push({ ...where, code: 'producer-target-unknown', reason: `cannot tell which file this ${w.via} write goes to ("${readableMarkers(rel ?? w.abs)}")` });
    return undefined;
  }
  if (rel === undefined) {
    problems.push({ ...where, code: 'producer-target-outside-repo', reason: `${w.via} write to "${w.abs}" is outside the repository` });
    return undefined;
  }
  if (!isFile(w.abs)) {
    const key = w.keyPath ? ` (key ${w.keyPath})` : '';
    const other = nonRegularKind(w.abs);
    problems.push({ ...where, code: 'producer-target-missing', reason: other ? `${w.via} writes "${rel}"${key}, which is ${other}, not a regular file` : `${w.via} writes "${rel}"${key}, which does not exist in the tree` });
  }
  return rel;
}

function isFile(abs: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}

/** What stands at `abs` when it exists but is no regular file (a FIFO, a device, a dangling symlink…), else undefined. */
function nonRegularKind(abs: string): string | undefined {
  let st;
  try {
    st = statSync(abs);
  } catch {
    try {
      return lstatSync(abs).isSymbolicLink() ? 'a symlink to nothing' : undefined;
    } catch {
      return undefined;
    }
  }
  return st.isFile() ? undefined : fileTypeName(st);
}

/**
 * Recipes for a target's builds. A write stamps the build whose metadata file
 * its value reads; otherwise the nearest build before it in the same target.
 * `foreign` holds writes of other targets of the same Makefile (split
 * build/stamp targets), claimed only through the metadata file.
 */
export function recipesFor(root: string, t: TargetFacts, own: Map<FoundWrite, PinWrite>, foreign: Map<FoundWrite, PinWrite>, problems: Problem[]): BuildRecipe[] {
  const builds = [...t.facts.builds].sort((a, b) => a.order - b.order);
  return builds.flatMap((b, i) => {
    const next = builds[i + 1]?.order ?? Infinity;
    const stamps: PinWrite[] = [];
    for (const [w, pin] of own) {
      const claimedBy = builds.find((x) => readsOutput(w, x));
      if (claimedBy ? claimedBy === b : w.order > b.order && w.order < next) stamps.push(pin);
    }
    for (const [w, pin] of foreign) if (readsOutput(w, b) && !stamps.includes(pin)) stamps.push(pin);
    const made = (t.facts.made ?? []).filter((m) => m.order < b.order);
    return recipe(root, t, made.length > 0 ? { ...b, madeBefore: made } : b, stamps, problems);
  });
}

function readsOutput(w: FoundWrite, b: FoundBuild): boolean {
  return b.outputs.some((o) => o !== '' && w.value.includes(o));
}

function recipe(root: string, t: TargetFacts, b: FoundBuild, stamps: PinWrite[], problems: Problem[]): BuildRecipe[] {
  return recipesOfBuild(root, { kind: 'make', file: t.makefile, name: t.target, label: `${t.makefile}:${t.target}` }, b, stamps, problems);
}

/** The recipes of one build of any builder: a ko invocation may build several images, a Dockerfile build one. */
export function recipesOfBuild(root: string, origin: RecipeOrigin, b: FoundBuild, stamps: PinWrite[], problems: Problem[]): BuildRecipe[] {
  if (b.ko) return koRecipes(root, origin, b.ko, b.source, b.command, stamps, problems);
  return [recipeOfBuild(root, origin, b, stamps, problems)];
}

/** Where a recipe is read from, for any recipe kind: `label` names it in problems (`Makefile:image`). */
export interface RecipeOrigin {
  kind: RecipeKind;
  file: string;
  name: string;
  label: string;
  /** Why a marker in this text is unknown (workflow expressions), appended to the problem it causes. */
  why?: (text: string) => string | undefined;
}

/** One image build, read by any recipe kind, as a BuildRecipe: context, Dockerfile and tagged repositories checked against the tree. */
export function recipeOfBuild(root: string, origin: RecipeOrigin, b: FoundBuild, stamps: PinWrite[], problems: Problem[]): BuildRecipe {
  const where = { file: b.source.file, line: b.source.line };
  const because = (text: string) => {
    const w = origin.why?.(text);
    return w ? `: ${w}` : '';
  };
  const context = b.context ? rootRelative(root, b.context, b.fromSlash?.context) : (b.contextArg ?? '');
  if (!b.context) problems.push({ ...where, code: 'recipe-context-unknown', reason: `build context "${readableMarkers(b.contextArg ?? '')}" is not a directory in the tree${because(b.contextArg ?? '')}` });
  const dockerfileAbs = b.dockerfile ?? (b.context ? defaultDockerfile(b.context) : undefined);
  // A remote or unknown context: its default Dockerfile is in it, not in the tree.
  const dockerfile = dockerfileAbs ? rootRelative(root, dockerfileAbs, b.dockerfile ? b.fromSlash?.dockerfile : b.fromSlash?.context) : 'Dockerfile';
  if (b.context && dockerfileAbs && !isFile(dockerfileAbs)) {
    problems.push({ ...where, code: 'recipe-dockerfile-missing', reason: `Dockerfile "${readableMarkers(dockerfile)}" of this build does not exist${because(dockerfile)}` });
  }
  const repositories: string[] = [];
  for (const tag of b.tags) {
    const ref = refOfTag(tag);
    if (!ref) {
      problems.push({ ...where, code: 'recipe-tag-unreadable', reason: `cannot read tag "${readableMarkers(tag)}" as an image reference${because(tag)}` });
      continue;
    }
    if (!repositories.includes(ref.name)) repositories.push(ref.name);
  }
  if (b.tags.length === 0) problems.push({ ...where, code: 'recipe-untagged', reason: `build in ${origin.label} has no --tag, so its repository is unknown` });
  const inputs: RecipeInput[] = (b.argFiles ?? []).flatMap((f) => {
    const rel = repoRelative(root, f.abs);
    if (rel === undefined) {
      problems.push({ ...where, code: 'recipe-arg-file-outside-repo', reason: `build arg ${f.arg} reads "${rootRelative(root, f.abs, f.fromSlash)}", which is outside the repository, so it is no input` });
      return [];
    }
    if (!isFile(f.abs)) problems.push({ ...where, code: 'recipe-arg-file-missing', reason: `build arg ${f.arg} reads "${rel}", which does not exist in the tree (kept as an input)` });
    return [{ path: rel, kind: 'file' as const, why: `build arg ${f.arg} reads it (${b.source.file}:${b.source.line})`, arg: f.arg }];
  });
  inputs.push(...madeInputs(root, b));
  return {
    kind: origin.kind,
    makefile: origin.file,
    target: origin.name,
    line: b.source.line,
    ...(origin.kind === 'make' && b.source.file !== origin.file ? { lineIn: b.source.file } : {}),
    dockerfile,
    context,
    ...(b.stage !== undefined ? { stage: b.stage } : {}),
    repositories,
    stamps,
    command: readableMarkers(b.command),
    ...(inputs.length ? { inputs } : {}),
  };
}

/**
 * The inputs of what earlier lines made inside the repository for this build (made.ts): each `cp`
 * source (a glob kept as one), each `go build` main package (its import closure), with `made` the
 * path made, so derivation takes a Dockerfile COPY of that path, absent from the tree, as known.
 */
function madeInputs(root: string, b: FoundBuild): RecipeInput[] {
  const out: RecipeInput[] = [];
  for (const m of b.madeBefore ?? []) {
    const made = repoRelative(root, m.dest);
    if (made === undefined) continue;
    const sources = m.sources.map((s) => repoRelative(root, s));
    if (sources.some((s) => s === undefined)) continue;
    const why = `${m.tool} into ${made} before the build (${m.source.file}:${m.source.line})`;
    for (const s of sources as string[]) {
      if (m.tool === 'go build') out.push({ path: s, go: true, why, made });
      else out.push({ path: s, ...(/[*?[]/.test(s) ? { kind: 'glob' as const } : {}), why, made });
    }
  }
  return out;
}

function defaultDockerfile(context: string): string {
  const docker = path.join(context, 'Dockerfile');
  const container = path.join(context, 'Containerfile');
  return !isFile(docker) && isFile(container) ? container : docker;
}
