/**
 * The GitHub Actions recipe kind at repository level: the workflow files
 * GitHub runs (`.github/workflows/*.yml|*.yaml`, not subdirectories), minus the
 * config's exclude globs, each read for the images it builds. A reusable
 * workflow (`on: workflow_call`) that another workflow here calls is read once
 * per caller, with the caller's `with:` inputs, instead of on its own. The
 * github context's `repository` and `repository_owner` come from buildEnv
 * GITHUB_REPOSITORY, else from a github.com `origin` remote in .git/config.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { parseYamlValue } from '../../collect/index.js';
import { excludeMatcher } from '../discover.js';
import type { Problem } from '../../model/index.js';
import type { BuildRecipe, RecipeReadOptions } from '../types.js';
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

function readText(abs: string): string | undefined {
  try {
    return statSync(abs).isFile() ? readFileSync(abs, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** `owner/name` of a github.com `origin` remote, read from the repository's git config (no git process). */
export function githubRepositoryFromRemote(root: string): string | undefined {
  let gitDir = path.join(root, '.git');
  const dotGit = readText(gitDir);
  if (dotGit !== undefined) {
    const m = /^gitdir:\s*(.+)$/m.exec(dotGit);
    if (!m) return undefined;
    gitDir = path.resolve(root, m[1]!.trim());
    const common = readText(path.join(gitDir, 'commondir'));
    if (common !== undefined) gitDir = path.resolve(gitDir, common.trim());
  }
  const config = readText(path.join(gitDir, 'config'));
  if (config === undefined) return undefined;
  const section = /\[remote "origin"\]([^[]*)/.exec(config)?.[1] ?? '';
  const url = /^\s*url\s*=\s*(.+)$/m.exec(section)?.[1]?.trim();
  const m = url ? /github\.com[:/]([^/\s]+)\/([^/\s]+?)(?:\.git)?\/?$/.exec(url) : undefined;
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/** The github context known before a run: from buildEnv, else the remote. */
function githubContext(root: string, env: ReadonlyMap<string, string>): Map<string, string> | undefined {
  const repository = env.get('GITHUB_REPOSITORY') ?? githubRepositoryFromRemote(root);
  if (!repository) return undefined;
  const owner = env.get('GITHUB_REPOSITORY_OWNER') ?? repository.split('/')[0]!;
  return new Map([
    ['repository', repository],
    ['repository_owner', owner],
  ]);
}

/** Workflows another workflow in the tree calls (`uses: ./.github/workflows/x.yaml`), repo-relative. */
function calledWorkflows(root: string): Set<string> {
  const out = new Set<string>();
  for (const f of findWorkflows(root, [])) {
    const text = readText(path.join(root, f)) ?? '';
    for (const m of text.matchAll(/uses:\s*["']?\.\/(\.github\/workflows\/[^\s"'@]+)/g)) if (m[1] !== f) out.add(m[1]!);
  }
  return out;
}

/** True when the workflow's only trigger is `workflow_call`. */
function onlyCalled(text: string): boolean {
  if (!text.includes('workflow_call')) return false;
  let on: unknown;
  try {
    const top = parseYamlValue(text, { uniqueKeys: false }) as Record<string, unknown> | null;
    on = top && typeof top === 'object' ? (top.on ?? top.true) : undefined;
  } catch {
    return false;
  }
  const triggers = typeof on === 'string' ? [on] : Array.isArray(on) ? on.map(String) : on && typeof on === 'object' ? Object.keys(on) : [];
  return triggers.length === 1 && triggers[0] === 'workflow_call';
}

export function readWorkflowFile(root: string, file: string, problems: Problem[], options: RecipeReadOptions = {}): BuildRecipe[] {
  const text = readText(path.join(root, file));
  if (text === undefined) {
    problems.push({ file, code: 'workflow-unreadable', reason: 'cannot read this workflow' });
    return [];
  }
  // A reusable workflow that a workflow here calls is read for each caller, with its inputs.
  if (onlyCalled(text) && calledWorkflows(root).has(file)) return [];
  const env = options.env ?? new Map<string, string>();
  const needsGithub = /github\.repository|GITHUB_REPOSITORY/.test(text) || /uses:\s*["']?\.\//.test(text);
  const github = needsGithub ? githubContext(root, env) : undefined;
  return readWorkflow(root, file, text, problems, { ...options, ...(github ? { github } : {}), readCalled: (f) => readText(path.join(root, f)) });
}
