/**
 * Issue 16, item 12: work that was quadratic in one file's size. The test
 * timeouts are the hostile suite's time caps (the old code took 200 s and 24 s
 * here; bench/scaling-bench.mjs has the ratios); the assertions check the result.
 */
import { describe, expect, it } from 'vitest';
import { collectYaml } from '../collect/yaml/index.js';
import type { BuildModel } from '../producers/types.js';
import { writeWithoutPin } from '../rules/write-without-pin.js';
import type { RuleInput } from '../rules/types.js';
import { editYaml } from './yaml.js';

function valuesFile(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += `img${i}: ghcr.io/acme/app${i}:v1.0.${i}\n`;
  return out;
}

describe('one large file stays linear', () => {
  it('write-without-pin over 64,000 pins in one file', { timeout: 20_000 }, () => {
    const text = valuesFile(64_000);
    const { pins } = collectYaml(text, { file: 'values.yaml', isFirstParty: () => true });
    expect(pins).toHaveLength(64_000);
    const source = { file: 'Makefile', line: 3 };
    const model = { producers: [{ id: 'Makefile:image', writes: [{ file: 'values.yaml', keyPath: 'missing.key', via: 'yq', refId: 'r', source }, { file: 'values.yaml', keyPath: 'img63999', via: 'yq', refId: 'r', source: { ...source, line: 4 } }] }], problems: [] } as unknown as BuildModel;
    const input = { pins, model, config: {}, skipped: [], problems: [], stampsOf: () => [], fileText: () => text } as unknown as RuleInput;
    const findings = writeWithoutPin.check(input);
    expect(findings.map((f) => [f.line, (f.evidence as { verdict: string }).verdict])).toEqual([[3, 'key-missing']]);
  });
  it('editYaml of one scalar in a 20,000-key map', { timeout: 20_000 }, () => {
    const text = valuesFile(20_000);
    const old = 'ghcr.io/acme/app19999:v1.0.19999';
    const at = text.indexOf(old);
    const out = editYaml(text, [{ start: at, end: at + old.length, text: `${old}-rebuilt` }], 'values.yaml').text;
    expect(out).toBe(text.replace(old, `${old}-rebuilt`));
  });
});
