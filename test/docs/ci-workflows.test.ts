/**
 * docs/ci/: the workflows a team copies. Each parses, checks out full history,
 * does what its header says (SARIF upload, the affected → build → repin chain,
 * the HTML artifact and issue comment, overlay and running, GitLab's Code
 * Quality report), and every flag it passes to pinwatch is one the CLI has.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../support/io.js';

type Doc = Record<string, any>;
const DIR = new URL('../../docs/ci/', import.meta.url);
const load = (name: string) => parse(readFileSync(new URL(name, DIR), 'utf8')) as Doc;
const steps = (doc: Doc) => Object.values(doc.jobs as Record<string, Doc>).flatMap((j) => (j.steps ?? []) as Doc[]);
const ours = (doc: Doc) => steps(doc).filter((s) => typeof s.uses === 'string' && /\/pinwatch@/.test(s.uses));

/** Flags a command takes: its own (its --help) and the global ones (pinwatch --help); undefined for a command this build lacks. */
async function helpFlags(command: string): Promise<Set<string> | undefined> {
  const r = await runCli([command, '--help']);
  if (r.code !== 0 || !r.out.startsWith(`Usage: pinwatch ${command}`)) return undefined;
  const global = (await runCli(['--help'])).out.split('\nCommands:')[0]!;
  return new Set([...(r.out.match(/--[a-z][a-z-]*/g) ?? []), ...(global.match(/--[a-z][a-z-]*/g) ?? [])]);
}

describe('docs/ci workflows', () => {
  const workflows = readdirSync(DIR).filter((f) => f.endsWith('.yml') && f !== 'gitlab-ci.yml');

  it('are the four the docs promise', () => {
    expect(workflows.sort()).toEqual(['e2e-finalize.yml', 'nightly-stale.yml', 'pr-check.yml', 'repin-on-merge.yml']);
  });

  it.each(readdirSync(DIR).filter((f) => f.endsWith('.yml') && f !== 'gitlab-ci.yml'))('%s: every checkout that pinwatch reads history in has fetch-depth: 0', (name) => {
    const doc = load(name);
    for (const [id, job] of Object.entries(doc.jobs as Record<string, Doc>)) {
      const jobSteps = (job.steps ?? []) as Doc[];
      const usesPinwatch = jobSteps.some((s) => /\/pinwatch@/.test(s.uses ?? ''));
      const checkout = jobSteps.find((s) => /^actions\/checkout@/.test(s.uses ?? ''));
      if (usesPinwatch) expect(checkout?.with?.['fetch-depth'], `${name} job ${id}`).toBe(0);
    }
  });

  it.each(readdirSync(DIR).filter((f) => f.endsWith('.yml') && f !== 'gitlab-ci.yml'))('%s: every pinwatch step passes only flags the command has', async (name) => {
    for (const step of ours(load(name))) {
      const command = step.with?.command ?? 'check';
      const known = await helpFlags(command);
      if (!known) {
        expect(command, `${name}: unknown command ${command}`).toBe('running'); // built in parallel (t-running)
        continue;
      }
      const used = (String(step.with?.args ?? '').match(/--[a-z][a-z-]*/g) ?? []).filter((f) => f !== '--help');
      for (const flag of used) expect(known.has(flag), `${name}: ${command} ${flag}`).toBe(true);
    }
  });

  it('pr-check: check on pull_request (and on pushes to main, whose cache holds its lint findings for PRs) with SARIF written and uploaded', () => {
    const doc = load('pr-check.yml');
    expect(Object.keys(doc.on)).toEqual(['pull_request', 'push']);
    expect(doc.on.push).toEqual({ branches: ['main'] });
    const [step] = ours(doc);
    expect(step!.with).toMatchObject({ command: 'check', sarif: 'pinwatch.sarif' });
    expect(steps(doc).find((s) => /^github\/codeql-action\/upload-sarif@/.test(s.uses ?? ''))?.with?.sarif_file).toBe('pinwatch.sarif');
    expect(doc.permissions['security-events']).toBe('write');
  });

  it('repin-on-merge: affected --base github.event.before → matrix build writing metadata → repin --from-build-metadata → one PR', () => {
    const doc = load('repin-on-merge.yml');
    const { affected, build, repin } = doc.jobs as Record<string, Doc>;
    const affectedStep = (affected!.steps as Doc[]).find((s) => s.id === 'affected')!;
    expect(affectedStep.with).toEqual({ command: 'affected', args: '--base ${{ github.event.before }}' });
    expect(affected!.outputs.matrix).toBe('${{ steps.affected.outputs.affected-matrix }}');
    expect(build!.needs).toBe('affected');
    expect(build!.strategy.matrix).toBe('${{ fromJSON(needs.affected.outputs.matrix) }}');
    expect((build!.steps as Doc[]).map((s) => s.run ?? '').join('\n')).toMatch(/--metadata-file "metadata\/\$IMAGE\.json"/);
    expect(repin!.needs).toBe('build');
    const repinStep = (repin!.steps as Doc[]).find((s) => s.with?.command === 'repin')!;
    expect(repinStep.with.args).toMatch(/^--from-build-metadata /);
    expect((repin!.steps as Doc[]).filter((s) => /create-pull-request/.test(s.uses ?? ''))).toHaveLength(1);
  });

  it('nightly-stale: on a schedule, the HTML report as an artifact, the stale table as an issue comment, never failing', () => {
    const doc = load('nightly-stale.yml');
    expect(doc.on.schedule[0].cron).toMatch(/^\S+ \S+ \* \* \*$/);
    const s = steps(doc);
    expect(ours(doc)[0]!.with).toMatchObject({ command: 'check', 'fail-on': 'never', html: 'pinwatch.html' });
    expect(s.find((x) => /upload-artifact/.test(x.uses ?? ''))?.with?.path).toBe('pinwatch.html');
    expect(s.map((x) => x.run ?? '').join('\n')).toMatch(/gh issue comment/);
  });

  it('e2e-finalize: overlay and running summaries', () => {
    const cmds = ours(load('e2e-finalize.yml')).map((s) => [s.with.command, String(s.with.args)]);
    expect(cmds.map((c) => c[0])).toEqual(['overlay', 'running']);
    expect(cmds[0]![1]).toMatch(/--from .* --at packages/);
    expect(cmds[1]![1]).toMatch(/^--pods /);
  });
});

describe('docs/ci/gitlab-ci.yml', () => {
  const doc = load('gitlab-ci.yml');
  const job = doc.pinwatch as Doc;
  it('full history, the Code Quality report as a codequality artifact, PR mode in merge requests', async () => {
    expect(job.variables.GIT_DEPTH).toBe(0);
    expect(job.artifacts.reports.codequality).toBe('gl-code-quality-report.json');
    expect(job.artifacts.when).toBe('always');
    const script = (job.script as string[]).join('\n');
    expect(script).toMatch(/--base "\$CI_MERGE_REQUEST_DIFF_BASE_SHA"/);
    const line = /pinwatch check (.*)/.exec(script)![1]!;
    expect(line).toContain('--format gitlab --output gl-code-quality-report.json');
    const known = (await helpFlags('check'))!;
    for (const flag of line.match(/--[a-z][a-z-]*/g) ?? []) expect(known.has(flag), flag).toBe(true);
    expect((await runCli(['check', '--help'])).out).toMatch(/Formats \(--format\): .*gitlab/);
  });
});
