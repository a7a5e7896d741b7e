/**
 * Real JSON output of every command that has one, produced in-process on the
 * demo repo (and, for inspect, on a real test registry), for the schema tests.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDemoRepo, DEMO_IMAGES, DEMO_LOG_FILE, demoDigest, writeDemoPods } from '../../src/demo/index.js';
import { runCli, type CliRun } from './io.js';
import { pushImage, startRegistry, type TestRegistry } from './registry.js';

/** A command's JSON output: the run (for code/err) and the parsed document. */
export interface JsonOutput {
  run: CliRun;
  doc: unknown;
}

const BILLING_VALUES = 'packages/system/billing/values.yaml';
const GATEWAY_VALUES = 'packages/system/gateway/values.yaml';
export const REPIN_REPOSITORY = 'ghcr.io/acme/platform/billing-controller';
export const REPIN_DIGEST = demoDigest('billing-controller v9 for the schema test');

async function json(argv: string[], cwd?: string): Promise<JsonOutput> {
  const run = await runCli(argv, cwd ? { cwd } : {});
  let doc: unknown;
  try {
    doc = JSON.parse(run.out);
  } catch (e) {
    throw new Error(`pinwatch ${argv.join(' ')} (exit ${run.code}) did not print JSON: ${String(e)}\nstdout: ${run.out}\nstderr: ${run.err}`);
  }
  return { run, doc };
}

/** An artifact copy of the demo tree (no .git) with one changed digest and one config change. */
export function makeOverlayArtifact(demo: string): string {
  const artifact = mkdtempSync(join(tmpdir(), 'pinwatch-schema-artifact-'));
  cpSync(demo, artifact, { recursive: true, filter: (src) => !src.split('/').includes('.git') });
  const billing = join(artifact, BILLING_VALUES);
  const newBilling = `${REPIN_REPOSITORY}:v1.0.1@${demoDigest('billing-controller rebuilt for overlay')}`;
  writeFileSync(billing, readFileSync(billing, 'utf8').replace(DEMO_IMAGES.billingV10, newBilling));
  const gateway = join(artifact, GATEWAY_VALUES);
  writeFileSync(gateway, readFileSync(gateway, 'utf8').replace('port: 8080', 'port: 9090'));
  return artifact;
}

export interface DemoOutputs {
  demo: string;
  stale: JsonOutput;
  lint: JsonOutput;
  check: JsonOutput;
  affected: JsonOutput;
  overlay: JsonOutput;
  explain: JsonOutput;
  repin: JsonOutput;
  /** running on the demo's cluster snapshot (billing-controller older than its pin). */
  running: JsonOutput;
  /** triage of the demo's failing-lane log. */
  triage: JsonOutput;
  /** lint and check after `lint --write-baseline`: every lint finding suppressed by the baseline. */
  lintWithBaseline: JsonOutput;
  checkWithBaseline: JsonOutput;
  cleanup(): void;
}

/** Build the demo repo and run every JSON-emitting command on it (repin and overlay as dry runs). */
export async function demoOutputs(): Promise<DemoOutputs> {
  const demo = buildDemoRepo();
  const artifact = makeOverlayArtifact(demo);
  const stale = await json(['--repo', demo, 'stale', '--format', 'json']);
  const lint = await json(['--repo', demo, 'lint', '--format', 'json']);
  const check = await json(['--repo', demo, 'check', '--format', 'json']);
  const affected = await json(['--repo', demo, 'affected', '--base', 'v1.0.0']);
  const overlay = await json(['--repo', demo, 'overlay', '--from', artifact, '--dry-run', '--format', 'json']);
  const explain = await json(['--repo', demo, 'explain', 'billing-controller', '--format', 'json']);
  const repin = await json(['--repo', demo, 'repin', 'billing-controller', '--dry-run', '--to', `${REPIN_REPOSITORY}:v9@${REPIN_DIGEST}`, '--format', 'json']);
  const running = await json(['--repo', demo, 'running', '--pods', writeDemoPods(demo), '--format', 'json']);
  const triage = await json(['--repo', demo, 'triage', join(demo, DEMO_LOG_FILE), '--format', 'json']);
  // Last: writing the baseline changes what lint and check report.
  const wrote = await runCli(['--repo', demo, 'lint', '--write-baseline']);
  if (wrote.code !== 0) throw new Error(`lint --write-baseline failed (exit ${wrote.code}): ${wrote.err}`);
  const lintWithBaseline = await json(['--repo', demo, 'lint', '--format', 'json']);
  const checkWithBaseline = await json(['--repo', demo, 'check', '--format', 'json']);
  return {
    demo, stale, lint, check, affected, overlay, explain, repin, running, triage, lintWithBaseline, checkWithBaseline,
    cleanup() {
      rmSync(demo, { recursive: true, force: true });
      rmSync(artifact, { recursive: true, force: true });
    },
  };
}

export interface InspectOutputs {
  labelled: JsonOutput;
  unlabelled: JsonOutput;
  stop(): Promise<void>;
}

/** Push two images (one with revision/source labels, one without) to a real registry and inspect both. */
export async function inspectOutputs(): Promise<InspectOutputs> {
  const reg: TestRegistry = await startRegistry();
  const cwd = mkdtempSync(join(tmpdir(), 'pinwatch-schema-inspect-'));
  try {
    const labels = { 'org.opencontainers.image.revision': 'c'.repeat(40), 'org.opencontainers.image.source': 'https://github.com/acme/platform' };
    const labelled = await pushImage(reg, 'acme/app', 'v1', { labels, content: 'v1' });
    await pushImage(reg, 'acme/app', 'nolabel', { content: 'nolabel' });
    return {
      labelled: await json(['--repo', cwd, '--format', 'json', 'inspect', `${reg.host}/acme/app@${labelled.digest}`, '--no-cache'], cwd),
      unlabelled: await json(['--repo', cwd, '--format', 'json', 'inspect', `${reg.host}/acme/app:nolabel`, '--no-cache'], cwd),
      async stop() {
        await reg.stop();
        rmSync(cwd, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await reg.stop();
    throw e;
  }
}
