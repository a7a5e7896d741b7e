/**
 * Build inputs of an image ko builds: the in-module Go import closure of its
 * main package (the same closure as Dockerfile `go build` narrowing), the
 * module's go.mod/go.sum (and vendor/), the `.ko.yaml` that configures it and
 * the main package's `kodata/` tree, which ko copies into the image.
 */
import type { KoBuild } from '../../producers/index.js';
import { dirPattern, pathKind, repoJoin } from '../paths.js';
import type { BuildInputs } from '../types.js';
import { goImportClosure } from './closure.js';
import { closureInputs, moduleFiles } from './narrowing.js';

/** Fill `out` with the inputs of a ko build described by `ko` (`origin` names the recipe for the steps). */
export async function koInputs(repoRoot: string, ko: KoBuild, origin: string, out: BuildInputs): Promise<void> {
  const label = `ko build ${ko.importPath ?? ko.main}`;
  out.steps.push(`${label}: ko builds the Go main package ${dirPattern(ko.main)} on ${ko.baseImage}${ko.ldflags?.length ? ` with ldflags ${ko.ldflags.join(' ')}` : ''} (from ${origin}); no Dockerfile`);
  if (ko.moduleDir === undefined) {
    out.unknownReason = `no go.mod at or above ${ko.main}, so the packages ko compiles are unknown (from ${origin})`;
    return;
  }
  const closure = await goImportClosure(repoRoot, ko.moduleDir, [{ dir: ko.main }]);
  if (typeof closure === 'string') {
    out.unknownReason = `${closure} (from ${origin})`;
    return;
  }
  out.steps.push(`${label} → ${closure.packages.length} package${closure.packages.length === 1 ? '' : 's'} in module ${closure.module}`);
  for (const p of closure.problems) out.steps.push(`${label}: ${p}`);
  for (const n of closure.nestedModules) out.steps.push(`${label}: import ${n.importPath} is in nested module ${n.moduleDir}, resolved from the module cache; not followed`);
  for (const f of closure.ignoredFiles) out.steps.push(`${f.path}: ${f.reason}; not compiled`);
  out.inputs.push(...closureInputs(closure, label, new Set([ko.main])), ...(await moduleFiles(repoRoot, closure.moduleDir)));
  out.ignore.push(...closure.ignoredFiles.map((f) => f.path), `${closure.moduleDir === '.' ? '' : `${closure.moduleDir}/`}**/*_test.go`);
  if (ko.config) out.inputs.push({ path: ko.config, kind: 'file', why: 'ko config (base image, builds, ldflags)' });
  const kodata = repoJoin(ko.main, 'kodata');
  if ((await pathKind(repoRoot, kodata)) === 'dir') {
    out.inputs.push({ path: `${kodata}/`, kind: 'tree', why: 'kodata/ of the main package: ko copies it into the image' });
    out.steps.push(`${kodata}/: copied into the image by ko (KO_DATA_PATH)`);
  }
}
