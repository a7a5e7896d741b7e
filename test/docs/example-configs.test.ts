/**
 * Every example config under docs/examples/ is a valid pinwatch.yaml: the README
 * tells users to copy them, so each loads (validated and defaulted) without an
 * error, and names in its first line the repository (owner/name) it is for.
 */
import { readFileSync } from 'node:fs';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';

const dir = fileURLToPath(new URL('../../docs/examples/', import.meta.url));
const examples = readdirSync(dir).filter((f) => f.endsWith('.pinwatch.yaml'));

describe('docs/examples', () => {
  it('holds the example configs', () => expect(examples.length).toBeGreaterThanOrEqual(15));
  it.each(examples)('%s loads as a pinwatch.yaml', (file) => {
    const config = loadConfig(dir, { configPath: file });
    expect(config.include.length).toBeGreaterThan(0);
    expect(readFileSync(`${dir}${file}`, 'utf8')).toMatch(/^# [^\n]*\b[\w.-]+\/[\w.-]+/);
  });
});
