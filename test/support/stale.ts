/** Hand-built pins and inputs for stale/affected tests (no scanning involved), and one CLI agreement check. */
import { expect } from 'vitest';
import { parseReference } from '../../src/reference/index.js';
import { formOf, type Pin } from '../../src/model/index.js';
import type { BuildInputs } from '../../src/sources/types.js';
import type { StaleImageInput } from '../../src/stale/types.js';
import type { TestRepo } from './repo.js';
import { runCli } from './io.js';

export const DIGEST = (c: string) => `sha256:${c.repeat(64).slice(0, 64)}`;

export function pin(file: string, line: number, raw: string): Pin {
  const ref = parseReference(raw);
  return { file, line, column: 1, shape: 'yaml-string', spans: [], raw, ref, form: formOf(ref), firstParty: true };
}

export function inputs(image: string, ...paths: string[]): BuildInputs {
  return { image, inputs: paths.map((path) => ({ path, why: 'test' })), ignore: [], steps: [`declared: ${paths.join(', ')}`] };
}

export function image(name: string, pins: Pin[], buildInputs?: BuildInputs, missingInputsReason?: string): StaleImageInput {
  return { image: name, repository: pins[0]!.ref.name, pins, ...(buildInputs ? { inputs: buildInputs } : {}), ...(missingInputsReason ? { missingInputsReason } : {}) };
}

export const values = (repo: string, tag: string, digest: string) => `controller:\n  image: "ghcr.io/acme/${repo}:${tag}@${digest}"\n`;

/**
 * Through the CLI, on a repository `r` whose image `c` (built in src/c) was built
 * from `built` and its digest introduced by `intro` (not by `later`, the addition
 * looked past): `stale`, `stale c` and `explain c` agree, and after a commit
 * touching the config, a cached run judged again from the kept history reads no
 * blob again and answers as `--no-cache`. `mentions`: more text explain must show.
 */
export async function expectCliAgrees(r: TestRepo, want: { built: string; intro: string; later: string; mentions?: string[] }): Promise<void> {
  r.commit({ 'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\nimages:\n  c:\n    repository: ghcr.io/acme/c\n    context: src/c\n', 'src/c/Dockerfile': 'FROM alpine\nCOPY . /app\n' }, 'chore: config');
  const run = (...extra: string[]) => runCli(['--repo', r.dir, 'stale', '--format', 'json', '--fail-on-stale', 'never', ...extra], { cwd: r.dir });
  const reference = JSON.parse((await run('--no-cache')).out);
  const c = (doc: { images: { image: string; status: string; builtFrom?: { commit: string } }[] }) => doc.images.find((i) => i.image === 'c')!;
  expect(c(reference)).toMatchObject({ status: 'stale', builtFrom: { commit: want.built } });
  // judged alone (`stale c`), the same answer; `explain c` names the same build
  expect(c(JSON.parse((await runCli(['--repo', r.dir, 'stale', 'c', '--format', 'json', '--no-cache'], { cwd: r.dir })).out))).toEqual(c(reference));
  const explained = await runCli(['--repo', r.dir, 'explain', 'c', '--no-cache'], { cwd: r.dir });
  expect(explained.out).toContain(`introduced by ${want.intro.slice(0, 10)}`);
  expect(explained.out).not.toContain(`introduced by ${want.later.slice(0, 10)}`);
  for (const text of want.mentions ?? []) expect(explained.out).toContain(text);
  await run();
  // a new commit touching the config: the kept answer is not reused, the history is judged again from kept records
  r.commit({ 'pinwatch.yaml': `# the same config\n${r.git('show', 'HEAD:pinwatch.yaml')}\n` }, 'chore: comment the config');
  const warm = await run('-v');
  expect(warm.err).toMatch(/history: [1-9]\d* digest change\(s\) of pin files kept, 0 worked out from blobs\n/);
  const strip = (doc: { stats?: unknown; head?: string }) => ({ ...doc, stats: undefined, head: undefined });
  expect(strip(JSON.parse(warm.out))).toEqual(strip(JSON.parse((await run('--no-cache')).out)));
  expect(strip(JSON.parse(warm.out))).toEqual(strip(reference));
}
