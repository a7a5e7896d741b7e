/**
 * The GitHub Actions recipe kind at repository level: the workflow files
 * GitHub runs (`.github/workflows/*.yml|*.yaml`, not subdirectories), minus the
 * config's exclude globs, each read for the images it builds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { excludeMatcher } from '../discover.js';
import type { Problem } from '../../model/index.js';
import type { BuildRecipe } from '../types.js';
import { readWorkflow } from './reader.js';

export const WORKFLOWS_DIR = '.github/workflows';

/** Repo-relative workflow files, sorted. */
export function findWorkflows(root: string, exclude: readonly string[]): string[] {
  const excluded = excludeMatcher(exclude);
  let names: string[];
  try {
    names = readdirSync(path.join(root, WORKFLOWS_DIR), { withFileTypes: true })
      .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
      .map((e) => e.name);
  } catch {
    return [];
  }
  return names.map((n) => `${WORKFLOWS_DIR}/${n}`).filter((f) => !excluded(f)).sort();
}

export function readWorkflowFile(root: string, file: string, problems: Problem[]): BuildRecipe[] {
  let text: string;
  try {
    text = readFileSync(path.join(root, file), 'utf8');
  } catch (e) {
    problems.push({ file, code: 'workflow-unreadable', reason: `cannot read this workflow: ${e instanceof Error ? e.message : String(e)}` });
    return [];
  }
  return readWorkflow(root, file, text, problems);
}
