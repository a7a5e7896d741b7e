/**
 * A multi-document file where some documents leave the fast parser's subset:
 * only those are parsed by `yaml` (each alone, at its own offsets), the others
 * as the fast parser builds them. The result must be what parsing the whole
 * text with `yaml` gives: the reference is the same text with a tab in a
 * trailing comment line, which sends the whole of it to `yaml` and changes no
 * pin, problem or left-out value.
 */
import { describe, expect, it } from 'vitest';
import { collectYaml } from '../../src/collect/yaml/collect.js';
import { fastParseEach } from '../../src/collect/yaml/fast-parse.js';
import { acmeContext } from '../support/collect.js';

const CTX = acmeContext('manifests/install.yaml');

const plain = (name: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  template:\n    spec:\n      containers:\n        - name: ${name}\n          image: ghcr.io/acme/${name}:v1.2.3@sha256:${'a'.repeat(64)}\n`;
// a ConfigMap as argo-cd renders haproxy's: a double-quoted scalar over several lines, with escapes
const escaped = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: haproxy\ndata:\n  haproxy.cfg: "defaults REDIS\\n  mode tcp\\n  timeout connect 4s\\n  timeout server\n    6m\\n  timeout client 6m\\n\\nlisten health_check_http_url\\n\n    \\ bind :8888  \\n  mode http\\n  tcp-check send PING\\\\r\\\\n\\n"\n  image: ghcr.io/acme/haproxy:2.9\n`;
// anchors and aliases (outside the subset): the alias's pin is recorded through the parsed document
const anchored = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  template:\n    spec:\n      containers:\n        - name: api\n          image: &img ghcr.io/acme/api:v2\n        - name: sidecar\n          image: *img\n`;
const broken = `apiVersion: v1\nkind: ConfigMap\ndata:\n  x: "unterminated \\q escape\n`;
const leak = `apiVersion: v1\nkind: ConfigMap\ndata:\n  a: &a {{ .Values.x }}\n  image: ghcr.io/acme/x:v1\n`;

const cases: { name: string; docs: string[]; yamlDocs: number }[] = [
  { name: 'one escaped ConfigMap among plain documents', docs: [plain('server'), escaped, plain('repo')], yamlDocs: 1 },
  { name: 'the first document (no --- before it)', docs: [escaped, plain('server')], yamlDocs: 1 },
  { name: 'the last document', docs: [plain('server'), plain('repo'), anchored], yamlDocs: 1 },
  { name: 'several, one with anchors and aliases', docs: [anchored, plain('server'), escaped, plain('repo'), anchored], yamlDocs: 3 },
  { name: 'an empty document between', docs: [plain('server'), '', escaped], yamlDocs: 1 },
  { name: 'a document yaml cannot parse (the whole text is, as before)', docs: [plain('server'), broken, plain('repo')], yamlDocs: 1 },
  { name: 'Helm template syntax in a document outside the subset', docs: [plain('server'), leak], yamlDocs: 1 },
];

describe('collectYaml: documents outside the fast subset parsed alone', () => {
  it.each(cases)('$name', ({ docs, yamlDocs }) => {
    const text = docs.map((d, i) => (i === 0 ? d : `---\n${d}`)).join('');
    const each = fastParseEach(text)!;
    expect(each.filter((d) => !('root' in d))).toHaveLength(yamlDocs);
    const whole = `${text}#\tthe whole text to yaml\n`;
    expect(fastParseEach(whole)).toBeUndefined();
    const strip = (r: ReturnType<typeof collectYaml>) => JSON.parse(JSON.stringify(r)) as unknown;
    expect(strip(collectYaml(text, CTX))).toEqual(strip(collectYaml(whole, CTX)));
  });

  it('finds the pins of every document, their lines the whole text\'s', () => {
    const text = [plain('server'), escaped, anchored].map((d, i) => (i === 0 ? d : `---\n${d}`)).join('');
    const pins = collectYaml(text, CTX).pins.map((p) => `${p.keyPath} ${p.raw} @${p.line}`);
    expect(pins).toEqual([
      '[0].spec.template.spec.containers[0].image ghcr.io/acme/server:v1.2.3@sha256:' + 'a'.repeat(64) + ' @10',
      '[1].data.image ghcr.io/acme/haproxy:2.9 @20',
      // the alias is the anchored pin's (aliases), as yaml's parse of the whole text records it
      '[2].spec.template.spec.containers[0].image ghcr.io/acme/api:v2 @31',
    ]);
    expect(collectYaml(text, CTX).pins[2]!.aliases).toEqual(['[2].spec.template.spec.containers[1].image']);
  });
});
