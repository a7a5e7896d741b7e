/**
 * The Skaffold recipe reader: every `build.artifacts[]` entry of a
 * skaffold.yaml (and of its `profiles[].build`, marked with the profile) as a
 * BuildRecipe. `docker`/`kaniko` artifacts build their Dockerfile (default
 * `<context>/Dockerfile`) with `target` and `buildArgs`; `ko` artifacts build
 * their main package (ko/). The repository is the artifact's image, with
 * SKAFFOLD_DEFAULT_REPO (buildEnv) applied as Skaffold rewrites image names; a
 * bare name without it, and builders pinwatch does not read (jib, bazel,
 * buildpacks, custom), are problems with file:line.
 */
import { readFileSync, statSync } from '../../util/tracked-fs.js';
import * as path from 'node:path';
import { parseSkaffold, type SkaffoldArtifact } from '../../collect/index.js';
import type { Problem } from '../../model/index.js';
import { tryParseReference } from '../../reference/index.js';
import { recipeOfBuild, type RecipeOrigin } from '../assemble.js';
import { baseImageFor, dirOfImport, importPathOf, moduleAt } from '../ko/index.js';
import type { BuildRecipe, KoBuild } from '../types.js';

import type { RecipeReadOptions } from '../types.js';

export type SkaffoldReadOptions = RecipeReadOptions;

function rel(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join('/') || '.';
}

function isDir(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The image Skaffold pushes for artifact `image` under `defaultRepo` (Skaffold's
 * image name rewriting): unchanged when it already starts with the default repo;
 * appended under a gcr.io repo; else appended with `/ . : @` escaped to `_`
 * (a bare name has none, so `frontend` becomes `<defaultRepo>/frontend`).
 */
export function withDefaultRepo(image: string, defaultRepo: string): string {
  const repo = defaultRepo.replace(/\/+$/, '');
  if (image === repo || image.startsWith(`${repo}/`)) return image;
  if (/^([a-z0-9-]+\.)?gcr\.io(\/|$)/.test(repo)) return `${repo}/${image}`;
  return `${repo}/${image.replace(/[/._:@]/g, '_')}`;
}

/** True when the image names no registry and no namespace (`frontend`): Skaffold needs a default repo to push it. */
function isBare(image: string): boolean {
  return !image.includes('/');
}

/** Recipes of one Skaffold file (`file` repo-relative); `text` its content. */
export function readSkaffold(root: string, file: string, text: string, problems: Problem[], options: SkaffoldReadOptions = {}): BuildRecipe[] {
  const parsed = parseSkaffold(text);
  for (const p of parsed.problems) problems.push({ file, line: p.line, code: p.code, reason: p.reason });
  if (!parsed.isSkaffold) return [];
  const dir = path.dirname(path.join(root, file));
  const defaultRepo = options.env?.get('SKAFFOLD_DEFAULT_REPO');
  const out: BuildRecipe[] = [];
  for (const a of parsed.artifacts) {
    const where = { file, line: a.line };
    const name = `${a.profile ? `profiles.${a.profile}.` : ''}build.artifacts "${a.image}"`;
    const origin: RecipeOrigin = { kind: 'skaffold', file, name, label: `${file}:${a.line} ${name}` };
    let repository: string | undefined;
    if (defaultRepo) repository = withDefaultRepo(a.image, defaultRepo);
    else if (isBare(a.image)) {
      problems.push({ ...where, code: 'skaffold-default-repo-unknown', reason: `artifact ${a.image} is a bare image name: Skaffold pushes it under --default-repo, which the tree does not say; set buildEnv.SKAFFOLD_DEFAULT_REPO in pinwatch.yaml` });
    } else repository = a.image;
    const parsedRepository = repository === undefined ? undefined : tryParseReference(repository);
    if (repository !== undefined && !parsedRepository) {
      problems.push({ ...where, code: 'recipe-tag-unreadable', reason: `artifact image "${repository}" is not an image repository` });
      repository = undefined;
    }
    const contextAbs = path.resolve(dir, a.context);
    let recipe: BuildRecipe | undefined;
    if (a.builder === 'docker' || a.builder === 'kaniko') recipe = dockerRecipe(root, origin, a, contextAbs, repository, problems);
    else if (a.builder === 'ko') recipe = koRecipe(root, origin, a, contextAbs, repository, problems);
    else {
      problems.push({ ...where, code: 'skaffold-builder-unread', reason: `artifact ${a.image} is built by ${a.builder}, which pinwatch does not read; declare its inputs under images: in pinwatch.yaml`, ...(parsedRepository ? { repository: parsedRepository.name } : {}) });
    }
    if (!recipe) continue;
    if (a.profile) recipe.profile = a.profile;
    out.push(recipe);
  }
  for (const r of parsed.requires) {
    const target = path.resolve(dir, r.path);
    if (path.relative(root, target).startsWith('..')) problems.push({ file, line: r.line, code: 'skaffold-require-outside', reason: `requires ${r.path}, outside the repository; its artifacts are not read` });
    else if (!isDir(target) && !/^skaffold\.ya?ml$/.test(path.basename(target))) {
      // A required config with another name is read here (one level); skaffold.yaml files are found on their own.
      let sub: string | undefined;
      try {
        sub = readFileSync(target, 'utf8');
      } catch {
        problems.push({ file, line: r.line, code: 'skaffold-require-missing', reason: `requires ${r.path}, which does not exist` });
      }
      if (sub !== undefined) out.push(...readSkaffold(root, rel(root, target), sub, problems, { ...options, env: options.env ?? new Map() }));
    } else if (isDir(target) && !['skaffold.yaml', 'skaffold.yml'].some((n) => { try { return statSync(path.join(target, n)).isFile(); } catch { return false; } })) {
      problems.push({ file, line: r.line, code: 'skaffold-require-missing', reason: `requires ${r.path}, which has no skaffold.yaml` });
    }
  }
  return out;
}

function dockerRecipe(root: string, origin: RecipeOrigin, a: SkaffoldArtifact, contextAbs: string, repository: string | undefined, problems: Problem[]): BuildRecipe {
  const dockerfileArg = a.dockerfile ?? 'Dockerfile';
  const argv = ['docker', 'build', '-f', dockerfileArg, ...(a.target ? ['--target', a.target] : []), ...Object.entries(a.buildArgs).flatMap(([k, v]) => ['--build-arg', `${k}=${v}`]), ...(repository ? ['-t', repository] : []), a.context];
  const recipe = recipeOfBuild(
    root,
    origin,
    {
      tool: `skaffold ${a.builder}`,
      context: isDir(contextAbs) ? contextAbs : '',
      contextArg: rel(root, contextAbs),
      dockerfile: path.resolve(contextAbs, dockerfileArg),
      ...(a.target ? { stage: a.target } : {}),
      tags: repository ? [repository] : [],
      outputs: [],
      command: `skaffold ${a.builder}: ${argv.join(' ')}`,
      source: { file: origin.file, line: a.line },
      order: 0,
    },
    [],
    problems,
  );
  if (!repository) {
    // recipeOfBuild reports a build with no tag as untagged; the reason is already said above.
    const i = problems.findIndex((p) => p.code === 'recipe-untagged' && p.file === origin.file && p.line === a.line);
    if (i !== -1) problems.splice(i, 1);
  }
  return recipe;
}

function koRecipe(root: string, origin: RecipeOrigin, a: SkaffoldArtifact, contextAbs: string, repository: string | undefined, problems: Problem[]): BuildRecipe | undefined {
  const where = { file: origin.file, line: a.line };
  const dirAbs = path.resolve(contextAbs, a.ko?.dir ?? '.');
  const main = a.ko?.main ?? '.';
  const mod = moduleAt(root, dirAbs);
  const mainAbs = /^[./]/.test(main) ? path.resolve(dirAbs, main) : mod ? dirOfImport(mod, main) : undefined;
  if (!mainAbs || !isDir(mainAbs) || path.relative(root, mainAbs).startsWith('..')) {
    problems.push({ ...where, code: 'recipe-context-unknown', reason: `ko artifact ${a.image}: main package ${main} is not a directory of ${mod ? `module ${mod.path}` : 'a Go module'} in the tree` });
    return undefined;
  }
  const importPath = mod ? importPathOf(mod, mainAbs) : undefined;
  const ko: KoBuild = {
    main: rel(root, mainAbs),
    ...(importPath ? { importPath } : {}),
    ...(mod ? { moduleDir: rel(root, mod.dir) } : {}),
    baseImage: a.ko?.fromImage ?? baseImageFor(undefined, importPath),
    ...(a.ko?.ldflags.length ? { ldflags: a.ko.ldflags } : {}),
  };
  return {
    kind: 'skaffold',
    makefile: origin.file,
    target: origin.name,
    line: a.line,
    dockerfile: '',
    context: ko.main,
    repositories: repository ? [repository] : [],
    stamps: [],
    command: `skaffold ko: ko build ${importPath ?? ko.main}${repository ? ` → ${repository}` : ''}`,
    ko,
  };
}
