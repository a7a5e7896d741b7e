import { Ajv } from 'ajv';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { configJsonSchema } from './json-schema.js';
import { loadConfig } from './load.js';
import { specKeyPaths } from './spec.js';

const schemaFile = new URL('../../schemas/pinwatch-config.schema.json', import.meta.url);
const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as Record<string, unknown>;
const validate = new Ajv({ strict: true, allErrors: true }).compile(schema);

/** Key paths of a JSON schema, in the notation of specKeyPaths. */
function schemaKeyPaths(s: Record<string, any>, prefix = ''): string[] {
  // an object with a shorthand form: the object's keys are the keys
  if (Array.isArray(s.anyOf)) return schemaKeyPaths(s.anyOf.find((b: Record<string, any>) => b.type === 'object'), prefix);
  if (s.type === 'object' && s.properties) {
    return Object.entries(s.properties as Record<string, any>).flatMap(([k, v]) => [prefix + k, ...schemaKeyPaths(v, `${prefix}${k}.`)]);
  }
  if (s.type === 'object' && typeof s.additionalProperties === 'object') return schemaKeyPaths(s.additionalProperties, `${prefix}*.`);
  if (s.type === 'array') return schemaKeyPaths(s.items, `${prefix}[].`);
  return [];
}

function loads(text: string): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-schema-'));
  try {
    writeFileSync(join(dir, 'pinwatch.yaml'), text);
    loadConfig(dir);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const samples: { name: string; text: string; valid: boolean }[] = [
  { name: 'minimal', text: 'firstParty: [ghcr.io/acme/]\n', valid: true },
  {
    name: 'everything',
    text: `firstParty: [ghcr.io/acme/]
include: ['**/values.yaml']
exclude: [legacy/]
extraFiles: [a/templates/ds.yml]
skipVendoredCharts: true
images: { billing: { repository: ghcr.io/acme/billing, dockerfile: Dockerfile, context: ., target: app, inputs: [src/**], ignore: ['**/*.md'], derive: true } }
producers: [{ name: 'Makefile:image', writes: ['values.yaml#.image'], built: false }]
buildEntry: Makefile:build
provenance: { methods: [registry, digest-history, git-tag], buildCommit: parent }
rules: { floating-tag: off }
baseline: .pinwatch-baseline.json
insecureRegistries: [localhost:5000]
`,
    valid: true,
  },
  { name: 'unknown top-level key', text: 'firstparty: [ghcr.io/acme/]\n', valid: false },
  { name: 'unknown nested key', text: 'provenance: { method: [registry] }\n', valid: false },
  { name: 'wrong type', text: 'include: "**/values.yaml"\n', valid: false },
  { name: 'bad enum', text: 'provenance: { buildCommit: grandparent }\n', valid: false },
  { name: 'provenance list shorthand', text: 'provenance: [registry, digest-history, git-tag]\n', valid: true },
  { name: 'provenance list shorthand, bad method', text: 'provenance: [carbon-dating]\n', valid: false },
  { name: 'bad rule level', text: 'rules: { floating-tag: fatal }\n', valid: false },
  { name: 'producer without writes', text: 'producers: [{ name: x }]\n', valid: false },
  { name: 'bad build entry', text: 'buildEntry: "Makefile:"\n', valid: false },
  { name: 'build entry: a recipe file', text: 'buildEntry: .github/workflows/release.yaml\n', valid: true },
  { name: 'build entry: none', text: 'buildEntry: none\n', valid: true },
  { name: 'buildEnv', text: 'buildEnv: { KO_DOCKER_REPO: ghcr.io/acme }\n', valid: true },
  { name: 'buildEnv, bad name', text: 'buildEnv: { "1X": y }\n', valid: false },
];

describe('schemas/pinwatch-config.schema.json', () => {
  it('is exactly what the spec generates (regenerate it from configJsonSchema())', () => {
    expect(schema).toEqual(configJsonSchema());
  });

  it('names the same keys as the loader accepts', () => {
    const fromSpec = specKeyPaths().sort();
    expect(schemaKeyPaths(schema).sort()).toEqual(fromSpec);
    expect(fromSpec).toEqual(expect.arrayContaining(['firstParty', 'provenance.methods', 'images.*.inputs', 'producers.[].writes']));
  });

  it('describes every key, so editors can complete it', () => {
    const missing: string[] = [];
    const walk = (s: Record<string, any>, at: string) => {
      if (typeof s.description !== 'string' || s.description.length < 5) missing.push(at);
      for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, any>)) walk(v, `${at}.${k}`);
      if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${at}.*`);
      if (s.items) walk(s.items, `${at}[]`);
    };
    walk(schema, '$');
    expect(missing).toEqual([]);
  });

  it.each(samples)('$name: schema and loader agree (valid: $valid)', ({ text, valid }) => {
    expect(validate(parse(text))).toBe(valid);
    expect(loads(text)).toBe(valid);
  });

  it('accepts the cozystack example config', () => {
    const text = readFileSync(new URL('../../docs/examples/cozystack.pinwatch.yaml', import.meta.url), 'utf8');
    expect(validate(parse(text))).toBe(true);
    expect(loads(text)).toBe(true);
  });
});
