/**
 * A ko invocation resolved against the tree into BuildRecipes: each import path
 * (or each `ko://` ref in the `-f` files of `ko resolve/apply`) becomes one
 * image, its main package located in its Go module, its `.ko.yaml` build and
 * base image found, and its repository named from KO_DOCKER_REPO by the naming
 * mode. What cannot be told (KO_DOCKER_REPO unset or computed at run time, an
 * import path outside the module) is a problem with file:line.
 */
import { readdirSync, readFileSync, statSync } from '../../util/tracked-fs.js';
import * as path from 'node:path';
import { hasMarker, readableMarkers } from '../../make/index.js';
import type { Problem } from '../../model/index.js';
import type { BuildRecipe, KoBuild, PinWrite, RecipeKind } from '../types.js';
import type { KoRequest } from './command.js';
import { baseImageFor, findKoConfig, readKoConfig, type KoConfig } from './config.js';
import { dirOfImport, importPathOf, moduleAt } from './gomod.js';
import { koRepository } from './naming.js';

/** Where the ko command is read from (any recipe kind). */
export interface KoOrigin {
  kind: RecipeKind;
  file: string;
  name: string;
  label: string;
  why?: (text: string) => string | undefined;
}

const KO_REF = /ko:\/\/([A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~+-]+)*)/g;

function rel(root: string, abs: string): string {
  const r = path.relative(root, abs).split(path.sep).join('/');
  return r === '' ? '.' : r;
}

function isDir(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

function inside(root: string, abs: string): boolean {
  const r = path.relative(root, abs);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
}

/** `ko://` refs in the `-f` files (a directory: its YAML/JSON files, all levels with -R), each once, in file order. */
function refsInFiles(root: string, req: KoRequest, where: { file: string; line: number }, problems: Problem[]): string[] {
  const out: string[] = [];
  const read = (abs: string) => {
    let text: string;
    try {
      text = readFileSync(abs, 'utf8');
    } catch {
      return;
    }
    for (const m of text.matchAll(KO_REF)) if (!out.includes(m[1]!)) out.push(m[1]!);
  };
  const walk = (dir: string, deep: boolean) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      return;
    }
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      if (e.isFile() && /\.(ya?ml|json)$/.test(e.name)) read(abs);
      else if (e.isDirectory() && deep) walk(abs, deep);
    }
  };
  let readable = 0;
  for (const f of req.files) {
    if (f === '-' || hasMarker(f)) {
      problems.push({ ...where, code: 'ko-files-unknown', reason: `ko ${req.verb} -f ${readableMarkers(f)}: which ko:// refs it resolves cannot be told from the tree` });
      continue;
    }
    if (!inside(root, f)) {
      problems.push({ ...where, code: 'ko-files-unknown', reason: `ko ${req.verb} -f ${f}: outside the repository` });
      continue;
    }
    readable++;
    if (isDir(f)) walk(f, req.recursive);
    else read(f);
  }
  if (readable > 0 && out.length === 0) problems.push({ ...where, code: 'ko-files-unknown', reason: `ko ${req.verb} -f ${req.files.map((f) => rel(root, f)).join(' -f ')}: no ko:// ref in ${req.files.length === 1 ? 'that file' : 'those files'}, so it builds nothing pinwatch can name` });
  return out;
}

function matchingBuild(config: KoConfig | undefined, mainAbs: string, importPath: string | undefined) {
  return config?.builds.find((b) => (/^[./]/.test(b.main) ? path.resolve(b.dirAbs, b.main) === mainAbs : b.main === importPath));
}

/** The recipes of one ko invocation; `env` is the shell environment it runs in (for KO_CONFIG_PATH). */
export function koRecipes(root: string, origin: KoOrigin, req: KoRequest, source: { file: string; line: number }, command: string, stamps: PinWrite[], problems: Problem[]): BuildRecipe[] {
  const because = (text: string) => {
    const w = origin.why?.(text);
    return w ? `: ${w}` : '';
  };
  const args = [...req.imports, ...refsInFiles(root, req, source, problems).map((r) => `ko://${r}`)];
  const configAbs = findKoConfig(req.cwd, new Map(req.configPath ? [['KO_CONFIG_PATH', req.configPath]] : []));
  const config = configAbs && inside(root, configAbs) ? readKoConfig(configAbs, rel(root, configAbs), problems) : undefined;
  const out: BuildRecipe[] = [];
  // the images whose repository an unset or unknown KO_DOCKER_REPO leaves unknown: one problem for the invocation
  const noRepo: string[] = [];
  for (const raw of args) {
    const arg = raw.replace(/^ko:\/\//, '');
    if (hasMarker(arg)) {
      problems.push({ ...source, code: 'recipe-context-unknown', reason: `ko ${req.verb} ${readableMarkers(raw)}: the import path cannot be evaluated${because(arg)}` });
      continue;
    }
    if (arg.includes('...')) {
      problems.push({ ...source, code: 'recipe-context-unknown', reason: `ko ${req.verb} ${raw}: a package pattern, not one main package` });
      continue;
    }
    let mainAbs: string | undefined;
    let importPath: string | undefined;
    let mod;
    if (/^[./]/.test(arg)) {
      mainAbs = path.resolve(req.cwd, arg);
      mod = moduleAt(root, mainAbs);
      importPath = mod ? importPathOf(mod, mainAbs) : undefined;
    } else {
      mod = moduleAt(root, req.cwd);
      importPath = arg;
      mainAbs = mod ? dirOfImport(mod, arg) : undefined;
    }
    if (!mainAbs || !inside(root, mainAbs) || !isDir(mainAbs)) {
      const why = !mod ? `no go.mod at or above ${rel(root, req.cwd)}` : !mainAbs ? `${arg} is not a package of module ${mod.path} (${rel(root, mod.dir)}/go.mod): ko would build it from the module cache` : `${rel(root, mainAbs)} is not a directory in the tree`;
      problems.push({ ...source, code: 'recipe-context-unknown', reason: `ko ${req.verb} ${raw}: ${why}` });
      continue;
    }
    const build = matchingBuild(config, mainAbs, importPath);
    const ko: KoBuild = {
      main: rel(root, mainAbs),
      ...(importPath ? { importPath } : {}),
      ...(mod ? { moduleDir: rel(root, mod.dir) } : {}),
      ...(config ? { config: config.file } : {}),
      baseImage: baseImageFor(config, importPath),
      ...(build?.ldflags.length ? { ldflags: build.ldflags } : {}),
    };
    const repositories: string[] = [];
    if (req.dockerRepo === undefined || hasMarker(req.dockerRepo)) noRepo.push(importPath ?? arg);
    else if (importPath === undefined) {
      problems.push({ ...source, code: 'ko-docker-repo-unknown', reason: `the import path of ${rel(root, mainAbs)} is unknown (no go.mod module line), so ko's repository name for it is too` });
    } else repositories.push(koRepository(req.dockerRepo, importPath, req.naming));
    out.push({
      kind: origin.kind,
      makefile: origin.file,
      target: origin.name,
      line: source.line,
      dockerfile: '',
      context: ko.main,
      repositories,
      stamps,
      command: readableMarkers(command),
      ko,
    });
  }
  if (noRepo.length > 0) {
    const which = noRepo.length === 1 ? `the repository of ${noRepo[0]} is` : `the repositories of its ${noRepo.length} images (${noRepo.join(', ')}) are`;
    const what = req.dockerRepo === undefined ? `KO_DOCKER_REPO is not set where ${origin.label} runs ko` : `KO_DOCKER_REPO "${readableMarkers(req.dockerRepo)}" cannot be evaluated`;
    problems.push({ ...source, code: 'ko-docker-repo-unknown', reason: `${what}, so ${which} unknown${req.dockerRepo === undefined ? '' : because(req.dockerRepo)}; set buildEnv.KO_DOCKER_REPO in pinwatch.yaml` });
  }
  return out;
}
