/** Findings about one stored field of a split map point at that field's line. */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/io.js';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;
const dir = mkdtempSync(join(tmpdir(), 'pinwatch-fieldloc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

mkdirSync(join(dir, 'charts/a'), { recursive: true });
writeFileSync(join(dir, 'pinwatch.yaml'), 'firstParty: [ghcr.io/acme/]\n');
writeFileSync(
  join(dir, 'charts/a/values.yaml'),
  [
    'operator:', //                         1
    '  image:', //                          2
    '    registry: ghcr.io', //             3
    '    repository: acme/operator', //     4
    '    tag: latest', //                   5
    'agent:', //                            6
    '  image:', //                          7
    '    registry: ghcr.io', //             8
    '    repository: acme/agent', //        9
    '    tag: v1', //                       10
    `    digest: "${D1}"`, //               11
    'sidecar:', //                          12
    `  image: "ghcr.io/acme/agent:v1@${D2}"`, // 13
    '',
  ].join('\n'),
);

interface F { rule: string; line: number; column: number }

describe('lint locations on split maps', () => {
  it('tag findings point at tag:, digest findings at digest:, one-line pins stay on their line', async () => {
    const r = await runCli(['--repo', dir, 'lint', '--format', 'json']);
    const findings = (JSON.parse(r.out) as { findings: (F & { file: string })[] }).findings.filter((f) => f.file === 'charts/a/values.yaml');
    const at = (rule: string) => findings.filter((f) => f.rule === rule).map((f) => `${f.line}:${f.column}`).sort();
    expect(at('floating-tag')).toEqual(['5:10']);
    expect(at('first-party-missing-digest')).toEqual(['5:10']);
    expect(at('repository-multiple-digests')).toEqual(['11:14', '13:11']);
    // a finding about the whole pin (nothing stamps it) stays at the map's first field
    expect(at('no-producer')).toContain('3:15');
  });
});
