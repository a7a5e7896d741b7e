/**
 * The published JSON Schemas (schemas/*-output.schema.json) against REAL output:
 * every command runs in-process on the demo repo (inspect on a real test
 * registry), each document must validate, and a mutated copy of each must not,
 * so no schema is vacuous.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoOutputs, inspectOutputs, type DemoOutputs, type InspectOutputs, type JsonOutput } from '../support/schemas.js';

type Doc = Record<string, any>;

const SCHEMA_DIR = new URL('../../schemas/', import.meta.url);
const loadSchema = (name: string): Doc => JSON.parse(readFileSync(new URL(`${name}.schema.json`, SCHEMA_DIR), 'utf8')) as Doc;
const ajv = new Ajv({ strict: true, allErrors: true });
const validators = new Map<string, ValidateFunction>();
function validator(name: string): ValidateFunction {
  if (!validators.has(name)) validators.set(name, ajv.compile(loadSchema(name)));
  return validators.get(name)!;
}

function expectValid(name: string, doc: unknown): void {
  const validate = validator(name);
  const ok = validate(doc);
  expect(ok, `${name}: ${ajv.errorsText(validate.errors, { separator: '\n' })}\n${JSON.stringify(validate.errors, null, 2)}`).toBe(true);
}

function expectInvalid(name: string, doc: unknown, what: string): void {
  const validate = validator(name);
  expect(validate(doc), `${name}: the mutation "${what}" should have been rejected`).toBe(false);
}

let demo: DemoOutputs;
let inspect: InspectOutputs;
beforeAll(async () => {
  demo = await demoOutputs();
  inspect = await inspectOutputs();
});
afterAll(async () => {
  demo?.cleanup();
  await inspect?.stop();
});

interface Case {
  command: string;
  schema: string;
  output: () => JsonOutput;
  /** Exit code the demo run must end with (the schema is checked on a normal run, not an error). */
  code: number;
  /** Mutations of a valid document that the schema must reject. */
  mutations: Record<string, (d: Doc) => void>;
}

const firstFindingWithPin = (d: Doc): Doc => (d.findings as Doc[]).find((f) => f.pin)!;
const staleBilling = (images: Doc[]): Doc => images.find((i) => i.image === 'billing-controller')!;

const CASES: Case[] = [
  {
    command: 'stale --format json', schema: 'stale-output', output: () => demo.stale, code: 1,
    mutations: {
      'version 2': (d) => void (d.version = 2),
      'an unknown status': (d) => void (d.images[0].status = 'fresh'),
      'pr as a string': (d) => void (staleBilling(d.images).unshipped[0].pr = '#42'),
      'a missing builtFrom': (d) => void delete d.images[0].builtFrom,
      'an unknown key on an image': (d) => void (d.images[0].extra = true),
      'an abbreviated head sha': (d) => void (d.head = d.head.slice(0, 10)),
    },
  },
  {
    command: 'lint --format json', schema: 'lint-output', output: () => demo.lint, code: 1,
    mutations: {
      'version 2': (d) => void (d.version = 2),
      'an unknown severity': (d) => void (d.findings[0].severity = 'fatal'),
      'a finding without a rule': (d) => void delete d.findings[0].rule,
      'a pin with an unknown shape': (d) => void (firstFindingWithPin(d).pin.shape = 'helm'),
      'a missing baseline key': (d) => void delete d.baseline,
      'an unknown top-level key': (d) => void (d.stale = {}),
    },
  },
  {
    command: 'lint --format json (with a baseline)', schema: 'lint-output', output: () => demo.lintWithBaseline, code: 0,
    mutations: {
      'an unknown suppression kind': (d) => void (d.findings[0].suppressed.kind = 'config'),
      'baseline.matched as a string': (d) => void (d.baseline.matched = '3'),
    },
  },
  {
    command: 'check --format json', schema: 'check-output', output: () => demo.check, code: 1,
    mutations: {
      'a missing stale report': (d) => void delete d.stale,
      'a stale report of version 2': (d) => void (d.stale.version = 2),
      'an unknown stale status': (d) => void (d.stale.images[0].status = 'fresh'),
      'notes as a string': (d) => void (d.notes = 'none'),
      'a related location without a file': (d) => void delete (d.findings as Doc[]).find((f) => f.related)!.related[0].file,
    },
  },
  {
    command: 'check --format json (with a baseline)', schema: 'check-output', output: () => demo.checkWithBaseline, code: 1,
    mutations: { 'a summary without suppressedByBaseline': (d) => void delete d.summary.suppressedByBaseline },
  },
  {
    command: 'affected', schema: 'affected-output', output: () => demo.affected, code: 0,
    mutations: {
      'an object instead of the matrix array': (d) => void (d[0] = { matrix: d[0] }),
      'an entry without reasons': (d) => void (d[0].reasons = []),
      'a reason without its input': (d) => void delete d[0].reasons[0].input,
    },
  },
  {
    command: 'overlay --format json', schema: 'overlay-output', output: () => demo.overlay, code: 0,
    mutations: {
      'version 2': (d) => void (d.version = 2),
      'another command': (d) => void (d.command = 'scan'),
      'an unknown file status': (d) => void (d.files[0].status = 'changed'),
      'a drift line with an unknown kind': (d) => void ((d.files as Doc[]).find((f) => f.status === 'drift')!.lines[0].kind = 'value'),
      'a summary key in kebab case': (d) => void ((d.summary['missing-in-artifact'] = 0), delete d.summary.missingInArtifact),
    },
  },
  {
    command: 'running --format json', schema: 'running-output', output: () => demo.running, code: 1,
    mutations: {
      'version 2': (d) => void (d.version = 2),
      'an unknown status': (d) => void (d.containers[0].status = 'stale'),
      'an abbreviated running digest': (d) => void (d.containers.find((c: Doc) => c.runningDigest).runningDigest = 'sha256:abc'),
      'pr as a string': (d) => void (d.containers.find((c: Doc) => c.lacks.length > 0).lacks[0].pr = '#42'),
      'a missing lacksVsPin': (d) => void delete d.containers[0].lacksVsPin,
      'an unknown key on a container': (d) => void (d.containers[0].extra = true),
    },
  },
  {
    command: 'explain --format json', schema: 'explain-output', output: () => demo.explain, code: 0,
    mutations: {
      'version 2': (d) => void (d.version = 2),
      'a producer without built': (d) => void delete d.pins[0].producers[0].built,
      'a recipe stamp written by hand': (d) => void (d.recipes[0].stamps[0].via = 'hand'),
      'a digest entry with an unknown status': (d) => void (d.digests[0].status = 'fresh'),
    },
  },
  {
    command: 'triage --format json (the failing lane)', schema: 'triage-output', output: () => demo.triage, code: 1,
    mutations: {
      'version 2': (d) => void (d.version = 2),
      'an unknown verdict': (d) => void (d.lines[0].verdict = 'maybe'),
      'an unknown standing': (d) => void (d.lines[1].matches[0].images[0].standing = 'stale'),
      'an abbreviated build commit': (d) => void (d.lines[1].matches[0].images[0].build.commit = 'abc1234'),
      'mentions as a string': (d) => void (d.lines[1].matches[0].images[0].lacks[0].mentions = 'Redis'),
      'a missing explanation': (d) => void delete d.lines[0].explanation,
    },
  },
  {
    command: 'repin --dry-run --format json', schema: 'repin-output', output: () => demo.repin, code: 0,
    mutations: {
      'a target digest that is not a digest': (d) => void (d.target.digest = 'latest'),
      'an unknown resolvedBy': (d) => void (d.target.resolvedBy = 'guessed'),
      'a change without its new text': (d) => void delete d.changes[0].to,
      'a file with its body': (d) => void (d.files[0].after = 'x'),
      'a problem without blocking': (d) => void d.problems.push({ code: 'no-pins', reason: 'x' }),
    },
  },
  {
    command: 'inspect --format json (labelled image)', schema: 'inspect-output', output: () => inspect.labelled, code: 0,
    mutations: {
      'an unknown commitFrom': (d) => void (d.commitFrom = 'guess'),
      'a non-string label': (d) => void (d.labels.count = 1),
      'a missing reason (absent instead of null)': (d) => void delete d.reason,
    },
  },
  {
    command: 'inspect --format json (unlabelled image)', schema: 'inspect-output', output: () => inspect.unlabelled, code: 0,
    mutations: { 'platforms as a string': (d) => void (d.platforms = 'linux/amd64') },
  },
];

describe('every JSON output validates against its published schema', () => {
  it.each(CASES.map((c) => [c.command, c] as const))('%s', (_name, c) => {
    const { run, doc } = c.output();
    expect(run.code, run.err).toBe(c.code);
    expectValid(c.schema, doc);
  });
});

describe('a mutated document fails its schema (the schemas are not vacuous)', () => {
  const rows = CASES.flatMap((c) => Object.entries(c.mutations).map(([what, mutate]) => [`${c.command}: ${what}`, c, what, mutate] as const));
  it.each(rows)('%s', (_name, c, what, mutate) => {
    const doc = structuredClone(c.output().doc) as Doc;
    mutate(doc);
    expectInvalid(c.schema, doc, what);
  });
});

describe('the demo outputs exercise the parts of the schemas that matter', () => {
  it('covers each stale status, suppressed findings, an overlaid and a drifted file, the unknown-inputs matrix entry', () => {
    const statuses = new Set((demo.stale.doc as Doc).images.map((i: Doc) => i.status));
    expect([...statuses].sort()).toEqual(['current', 'stale', 'unknown']);
    const suppressed = (demo.lintWithBaseline.doc as Doc).findings.filter((f: Doc) => f.suppressed?.kind === 'baseline');
    expect(suppressed.length).toBeGreaterThan(0);
    expect((demo.lintWithBaseline.doc as Doc).baseline).toMatchObject({ file: '.pinwatch-baseline.json', matched: suppressed.length });
    // check reports the same baseline use as lint
    expect((demo.checkWithBaseline.doc as Doc).baseline).toMatchObject({ file: '.pinwatch-baseline.json', matched: suppressed.length });
    expect((demo.checkWithBaseline.doc as Doc).notes).toEqual(expect.arrayContaining([`baseline .pinwatch-baseline.json: ${suppressed.length} of ${suppressed.length} entries matched`]));
    expect((demo.overlay.doc as Doc).files.map((f: Doc) => f.status)).toEqual(expect.arrayContaining(['overlaid', 'drift', 'same']));
    expect((demo.affected.doc as Doc[]).find((a) => a.reasons[0].path === '*')).toBeDefined();
    expect((inspect.unlabelled.doc as Doc).commit).toBeNull();
    expect((inspect.labelled.doc as Doc).commit).toBe('c'.repeat(40));
  });
});

describe('the schema files themselves', () => {
  const outputSchemas = readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('-output.schema.json')).map((f) => f.replace(/\.schema\.json$/, ''));

  it('there is one per command with JSON output', () => {
    expect(outputSchemas.sort()).toEqual(['affected-output', 'cache-output', 'check-output', 'compare-output', 'explain-output', 'inspect-output', 'lint-output', 'mirror-output', 'overlay-output', 'promote-output', 'repin-output', 'running-output', 'scan-output', 'stale-output', 'triage-output']);
  });

  it.each(outputSchemas)('%s: draft-07, compiles in strict mode, every property described', (name) => {
    const schema = loadSchema(name);
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(typeof schema.title).toBe('string');
    expect(schema.description.length).toBeGreaterThan(20);
    validator(name);
    const undescribed: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}[${i}]`));
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node as Doc)) {
        if ((key === 'properties' || key === 'definitions') && value && typeof value === 'object') {
          for (const [prop, sub] of Object.entries(value as Doc)) if (typeof sub?.description !== 'string' && !sub?.$ref) undescribed.push(`${path}.${key}.${prop}`);
        }
        walk(value, `${path}.${key}`);
      }
    };
    walk(schema, '#');
    expect(undescribed).toEqual([]);
  });

  it('shared pieces are copies of one definition: the stale image and report, the finding and pin', () => {
    const stale = loadSchema('stale-output');
    const check = loadSchema('check-output');
    const lint = loadSchema('lint-output');
    const explain = loadSchema('explain-output');
    expect(check.definitions.staleImage).toEqual(stale.definitions.staleImage);
    expect(explain.definitions.staleImage).toEqual(stale.definitions.staleImage);
    expect(check.definitions.staleReport.properties).toEqual(stale.properties);
    expect(check.definitions.staleReport.required).toEqual(stale.required);
    expect(check.definitions.finding).toEqual(lint.definitions.finding);
    expect(check.definitions.pin).toEqual(lint.definitions.pin);
  });
});
