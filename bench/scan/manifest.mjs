// A generated multi-document Kubernetes manifest shaped like the CRD bundles
// controller-gen and kustomize emit (cozystack's 1.1 MB
// capi-providers-cpprovider/files/control-plane-components.yaml is one): deep
// block maps, `|-` and `|` descriptions, folded plain and quoted multi-line
// descriptions, `''` escapes, enums, a Deployment with a pinned image. Used by
// the fast parser's equivalence test and the scan benchmark.
import { prng } from '../prng.mjs';

const WORDS = ['the', 'field', 'selects', 'which', 'pods', 'are', 'matched', 'by', 'this', 'policy', 'when', 'set', 'to', '"Deployment",', 'and', 'value', 'must', 'be', 'a', 'DNS', 'label', '(default).', 'e.g.', 'spec.replicas', 'Required', 'one', 'of', '[TCP,', 'UDP]'];

/** About `kb` kilobytes of manifest text; the same text for the same arguments. */
export function generateManifest(kb = 200, seed = 7) {
  const rand = prng(seed);
  const words = (n) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  const out = [];
  const description = (pad) => {
    const r = rand();
    if (r < 0.4) {
      out.push(`${pad}description: |-`);
      for (let i = 0, n = 1 + Math.floor(rand() * 4); i < n; i++) out.push(i === 2 ? '' : `${pad}  ${words(8)}`);
    } else if (r < 0.5) {
      out.push(`${pad}description: |`, `${pad}  ${words(6)}`, `${pad}    indented ${words(3)}`, `${pad}  ${words(4)}`);
    } else if (r < 0.7) {
      out.push(`${pad}description: x ${words(9)}`, `${pad}  ${words(7)}`);
    } else if (r < 0.85) {
      out.push(`${pad}description: 'It''s ${words(6)}: Required:`, `${pad}  ${words(5)}'`);
    } else out.push(`${pad}description: ${words(4).replace(/[^a-z .]/gi, '').trim() || 'plain'}`);
  };
  const schema = (pad, depth) => {
    for (let i = 0, n = 2 + Math.floor(rand() * 4); i < n; i++) {
      out.push(`${pad}field${i}${depth}:`);
      description(`${pad}  `);
      if (depth < 5 && rand() < 0.6) {
        out.push(`${pad}  properties:`);
        schema(`${pad}    `, depth + 1);
        out.push(`${pad}  type: object`);
      } else if (rand() < 0.3) {
        out.push(`${pad}  enum:`, `${pad}  - TCP`, `${pad}  - UDP`, `${pad}  type: string`);
      } else out.push(`${pad}  format: int32`, `${pad}  type: integer`);
    }
  };
  let doc = 0;
  while (out.join('\n').length < kb * 1024) {
    if (doc > 0) out.push('---');
    out.push('apiVersion: apiextensions.k8s.io/v1', 'kind: CustomResourceDefinition', 'metadata:', '  annotations:', '    controller-gen.kubebuilder.io/version: v0.16.4', `  name: things${doc}.example.io`, 'spec:', '  versions:', '  - name: v1alpha1', '    schema:', '      openAPIV3Schema:', '        properties:');
    schema('          ', 0);
    out.push('        type: object', '    served: true');
    doc++;
  }
  out.push('---', 'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: manager', 'spec:', '  template:', '    spec:', '      containers:', '      - args:', '        - --leader-elect', '        image: ghcr.io/example/manager:v0.1.0@sha256:' + '0'.repeat(64), '        name: manager', '');
  return out.join('\n');
}
