/**
 * Builds the demo monorepo (see story.ts) as a real git repository with fixed
 * dates, so every sha is the same on every machine.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PinwatchError } from '../errors.js';
import { DEMO_FAILING_LANE_LOG, DEMO_LOG_FILE, demoStory } from './story.js';

function gitIn(dir: string, args: string[], date: string): void {
  execFileSync('git', args, {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Demo Dev',
      GIT_AUTHOR_EMAIL: 'dev@acme.test',
      GIT_COMMITTER_NAME: 'Demo Dev',
      GIT_COMMITTER_EMAIL: 'dev@acme.test',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    },
  });
}

/** `{{commit8:<message>}}` → the first 8 hex digits of the earlier story commit with that message. */
export function fillCommitRefs(text: string, shas: ReadonlyMap<string, string>): string {
  return text.replace(/\{\{commit8:([^}]*)\}\}/g, (_, message: string) => {
    const sha = shas.get(message);
    if (!sha) throw new Error(`internal: the demo story names a commit "${message}" before it exists`);
    return sha.slice(0, 8);
  });
}

/** Create the demo repo in `dir` (must be empty or absent) or a new temp folder; returns its path. */
export function buildDemoRepo(dir?: string): string {
  const root = dir ?? mkdtempSync(join(tmpdir(), 'pinwatch-demo-'));
  mkdirSync(root, { recursive: true });
  if (readdirSync(root).length > 0) {
    throw new PinwatchError('demo-dir-not-empty', `the demo needs an empty folder; "${root}" has files in it`);
  }
  const story = demoStory();
  gitIn(root, ['init', '-q', '-b', 'main'], story[0]!.date);
  const shas = new Map<string, string>();
  for (const step of story) {
    for (const [path, content] of Object.entries(step.files)) {
      const full = join(root, path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, fillCommitRefs(content, shas));
    }
    gitIn(root, ['add', '-A'], step.date);
    gitIn(root, ['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', step.message], step.date);
    shas.set(step.message, execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim());
    if (step.tag) gitIn(root, ['-c', 'tag.gpgsign=false', 'tag', step.tag], step.date);
  }
  // The failing lane's log, untracked and excluded, so the tree stays clean.
  writeFileSync(join(root, DEMO_LOG_FILE), DEMO_FAILING_LANE_LOG);
  appendFileSync(join(root, '.git', 'info', 'exclude'), `/${DEMO_LOG_FILE}\n`);
  return root;
}
