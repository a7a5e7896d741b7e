/**
 * The release commands' JSON Schemas (schemas/{promote,mirror,compare}-output)
 * against REAL output: promote (tagged, refused) and mirror (copied, rewritten)
 * on real test registries, compare on real trees; each document must validate
 * and a mutated copy must not, so no schema is vacuous.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';
import type { PushedImage, TestRegistry } from '../support/registry.js';
import { pushImage, startRegistry } from '../support/registry.js';
import type { TestRepo } from '../support/repo.js';
import { makeRepo } from '../support/repo.js';

type Doc = Record<string, any>;
const ajv = new Ajv({ strict: true, allErrors: true });
const validators = new Map<string, ValidateFunction>();
function validator(name: string): ValidateFunction {
  if (!validators.has(name)) validators.set(name, ajv.compile(JSON.parse(readFileSync(new URL(`../../schemas/${name}.schema.json`, import.meta.url), 'utf8')) as Doc));
  return validators.get(name)!;
}

let a: TestRegistry;
let b: TestRegistry;
let repo: TestRepo;
let img: PushedImage;
const outputs: Record<string, Doc> = {};
const trees: string[] = [];

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-schema-release-'));
  trees.push(dir);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  return dir;
}

async function json(args: string[], cwd: string, code: number): Promise<Doc> {
  const r = await runCli([...args, '--format', 'json', '--no-cache'].filter((x) => x !== '--no-cache' || args[0] !== 'compare'), { cwd });
  expect(r.err).toBe('');
  expect(r.code, r.out).toBe(code);
  return JSON.parse(r.out) as Doc;
}

beforeAll(async () => {
  a = await startRegistry();
  b = await startRegistry();
  img = await pushImage(a, 'acme/ci/app', 'rc1', { content: 'schema app' });
  const other = await pushImage(a, 'acme/ci/app', 'v2.0.0', { content: 'other build' });
  repo = makeRepo('pinwatch-schema-release-');
  repo.commit({ 'pinwatch.yaml': `firstParty:\n  - ${a.host}/acme\n  - ${b.host}/acme\n`, 'deploy/values.yaml': `app:\n  image: ${a.host}/acme/ci/app:rc1@${img.digest}\n`, 'images/app.tag': `${a.host}/acme/ci/app:rc1@${img.digest}\n` }, 'tree');
  outputs.promoted = await json(['promote', '--tag', 'v1.0.0', '--move', 'latest', '--rewrite', '--dry-run'], repo.dir, 0);
  outputs.refused = await json(['promote', '--tag', 'v2.0.0'], repo.dir, 1);
  void other;
  outputs.mirrored = await json(['mirror', '--from', `${a.host}/acme/ci`, '--to', `${b.host}/acme/pub`, '--rewrite'], repo.dir, 0);
  const D = img.digest;
  const before = tree({ 'deploy/values.yaml': `app:\n  replicas: 1\n  image: ghcr.io/acme/app:rc1@${D}\n`, 'images/api.tag': `ghcr.io/acme/api:rc1@${D}\n` });
  const after = tree({ 'pinwatch.yaml': 'firstParty:\n  - ghcr.io/acme\n', 'deploy/values.yaml': `app:\n  replicas: 2\n  image: ghcr.io/acme/app:v1@${D}\n`, 'images/api.tag': `ghcr.io/acme/api:v1@${D}\n` });
  outputs.compared = await json(['compare', '--from', before], after, 1);
});

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  repo?.cleanup();
  for (const t of trees) rmSync(t, { recursive: true, force: true });
});

const CASES: { name: string; schema: string; mutations: Record<string, (d: Doc) => void> }[] = [
  {
    name: 'promoted',
    schema: 'promote-output',
    mutations: {
      'unknown plan': (d) => (d.images[0].plan = 'maybe'),
      'digest not a digest': (d) => (d.images[0].digest = 'latest'),
      'rewrite change without shape': (d) => delete d.rewrite.changes[0].shape,
      'extra key': (d) => (d.extra = 1),
    },
  },
  { name: 'refused', schema: 'promote-output', mutations: { 'action tagged-ish': (d) => (d.images[0].action = 'retagged'), 'no indeterminate': (d) => delete d.indeterminate } },
  {
    name: 'mirrored',
    schema: 'mirror-output',
    mutations: { 'stats negative': (d) => (d.images[0].stats.blobsCopied = -1), 'remaining kind': (d) => d.rewrite.remaining.push({ file: 'x', line: 1, text: 'x', kind: 'both' }), 'no from': (d) => delete d.from },
  },
  {
    name: 'compared',
    schema: 'compare-output',
    mutations: { 'unknown status': (d) => (d.files[0].status = 'rebuilt'), 'summary missing drift': (d) => delete d.summary.drift, 'ref without keyPath': (d) => d.files[0].refs.push({ from: 'a', to: 'b' }) },
  },
];

describe('release JSON outputs match their schemas', () => {
  it('ran as expected', () => {
    expect(outputs.promoted!.images[0].moves[0]).toMatchObject({ action: 'kept', reason: expect.stringContaining('v2.0.0') });
    expect(outputs.promoted!.rewrite.changes).toHaveLength(2);
    expect(outputs.refused!.images[0].action).toBe('conflict');
    expect(outputs.mirrored!.images[0].action).toBe('copied');
    expect(outputs.mirrored!.rewrite.written).toBe(true);
    expect(outputs.compared!.files.map((f: Doc) => f.status).sort()).toEqual(['drift', 'tags-only']);
  });
  for (const c of CASES) {
    it(`${c.name} validates against ${c.schema}, and each mutation is rejected`, () => {
      const validate = validator(c.schema);
      expect(validate(outputs[c.name]), ajv.errorsText(validate.errors)).toBe(true);
      for (const [what, mutate] of Object.entries(c.mutations)) {
        const copy = structuredClone(outputs[c.name]!);
        mutate(copy);
        expect(validate(copy), `${c.schema}: "${what}" should be rejected`).toBe(false);
      }
    });
  }
});
