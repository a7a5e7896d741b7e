/** `ko://<importpath>` refs: source refs (form `source`), under an image key, under any key, and in `--x-image=` arguments; never invalid refs. */
import { describe, expect, it } from 'vitest';
import { acmeContext } from '../../../test/support/collect.js';
import { collectYaml } from './index.js';

describe('ko:// source refs', () => {
  const cases: { name: string; text: string; want: { keyPath: string; shape: string; raw: string; line: number; column: number }[] }[] = [
    { name: 'under an image key', text: 'spec:\n  containers:\n    - image: ko://github.com/acme/app/cmd/app\n', want: [{ keyPath: 'spec.containers[0].image', shape: 'yaml-string', raw: 'ko://github.com/acme/app/cmd/app', line: 3, column: 14 }] },
    { name: 'quoted, under any key', text: 'controller: "ko://knative.dev/serving/cmd/controller"\n', want: [{ keyPath: 'controller', shape: 'yaml-string', raw: 'ko://knative.dev/serving/cmd/controller', line: 1, column: 14 }] },
    { name: 'in an argument list', text: 'args:\n  - --queue-sidecar-image=ko://knative.dev/serving/cmd/queue\n  - -v=2\n', want: [{ keyPath: 'args[0]', shape: 'yaml-arg', raw: 'ko://knative.dev/serving/cmd/queue', line: 2, column: 27 }] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = collectYaml(c.text, acmeContext('deploy.yaml'));
      expect(r.problems).toEqual([]);
      expect(r.pins.map((p) => ({ keyPath: p.keyPath, shape: p.shape, raw: p.raw, line: p.line, column: p.column }))).toEqual(c.want);
      for (const p of r.pins) {
        expect(p).toMatchObject({ form: 'source', firstParty: false, source: { builder: 'ko', name: p.raw.slice(5) }, ref: { name: '' } });
        expect(p.incomplete).toMatch(/^a ko:\/\/ source ref: ko builds .* and writes the image ref here at release$/);
        expect(c.text.slice(p.spans[0]!.start, p.spans[0]!.end)).toBe(p.raw);
      }
    });
  }
  it('a ko:// value that is no import path is an invalid ref, with the expected form', () => {
    const r = collectYaml('image: ko://\n', acmeContext('deploy.yaml'));
    expect(r.pins).toEqual([]);
    expect(r.problems).toEqual([expect.objectContaining({ line: 1, code: 'invalid-ref', reason: expect.stringContaining('expected ko://<Go import path>') })]);
  });
});
