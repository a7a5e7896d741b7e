// Long-running differential fuzz of the fast YAML subset parser against `yaml`
// (the vitest suite runs a short version): random mutations of the collector
// fixtures and the shared cozystack values files, plus texts generated from a
// small block-YAML grammar. Every text fastParse accepts must give yaml's tree
// (values, types, sources, styles, ranges). Run after `npm run build`:
//   node bench/scan/fuzz-fast-parse.mjs [count=100000] [seed=1]
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isPair, isScalar, isSeq, parseAllDocuments } from 'yaml';

const { fastParse } = await import('../../dist/collect/yaml/fast-parse.js');
const N = Number(process.argv[2] ?? 100000);
let seed = Number(process.argv[3] ?? 1);
const next = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (xs) => xs[Math.floor(next() * xs.length)];

const corpus = [];
const roots = [new URL('../../src/collect', import.meta.url).pathname, new URL('../../../shared/fixtures/cozystack-3c780acd4', import.meta.url).pathname];
for (const root of roots.filter(existsSync)) {
  (function walk(d) {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(e.name) && (e.name === 'values.yaml' || p.includes('/fixtures/'))) corpus.push(readFileSync(p, 'utf8'));
    }
  })(root);
}

const shape = (n) =>
  isScalar(n) ? ['S', typeof n.value, String(n.value), n.source, n.type, n.range?.[0], n.range?.[1]]
  : isMap(n) ? ['M', !!n.flow, n.range?.[0], n.items.map((p) => (isPair(p) ? [shape(p.key), shape(p.value)] : 'not a pair'))]
  : isSeq(n) ? ['Q', !!n.flow, n.range?.[0], n.items.map(shape)]
  : ['?', String(n)];
const viaYaml = (t) => {
  const d = parseAllDocuments(t, { uniqueKeys: false });
  if (!Array.isArray(d)) return 'no documents';
  if (d.length !== 1) return `${d.length} documents`;
  return d[0].errors.length ? `errors: ${d[0].errors[0].message}` : shape(d[0].contents);
};

const TOKENS = [' ', '  ', '\n', ':', ': ', '- ', '-', '#', ' #', ' # c', '"', "'", '{', '}', '[', ']', ',', ', ', '?', '&a ', '*a', '!', '!!str ', '|', '>', '0', '1.5', '1e3', '-1', '+1', '0o7', '0x1F', '.inf', '.nan', 'true', 'FALSE', '~', 'null', '""', "''", 'key: v', '\n  ', '\n- ', '\n    x: y', '\n  - z', '...', '---', '\n---\n', 'é', '\\', '%', '@', '`', '\t', '\r', '{{ .Values.x }}', '{a: b}', '[a, b]', '{}', '[]', '[-]', 'ghcr.io/acme/x:v1', ':x', 'a:b', 'x #y', '#x', '\n{}', '- a: b\n  c: d', '\n  -\n    k: v', '<<: ', '"k": ', "'k': ", '\n"k": v', '\\n', '\\"', '\\\\', '\\x41', '\\u00e9', '\\U0001F600', '\\u12', '\\q', '\\ ', '\n   \n', '\n      \n', '\n\n', '—', '✓ ', '\u00a0', '\u0085', ': |\n  x\n   \n  y', ': >\n\n  x', ': |-\n\n  \n  a\n'];
function mutate(text) {
  let out = text;
  for (let k = 1 + Math.floor(next() * 4); k > 0; k--) {
    const pos = Math.floor(next() * (out.length + 1));
    const op = next();
    if (op < 0.55) out = out.slice(0, pos) + pick(TOKENS) + out.slice(pos);
    else if (op < 0.8) out = out.slice(0, pos) + out.slice(pos + 1 + Math.floor(next() * 4));
    else {
      const lines = out.split('\n');
      const li = Math.floor(next() * lines.length);
      lines[li] = op < 0.9 ? ` ${lines[li]}` : lines[li].replace(/^ /, '');
      out = lines.join('\n');
    }
  }
  return out;
}

const KEYS = ['a', 'image', 'tag', 'repository', 'x.y', 'a/b', 'k-1', '_k', '1', '0x1', 'true', 'null', 'yes', 'A', '1e3', '08'];
const SCALARS = ['v', 'ghcr.io/acme/x:v1', '1', '-1', '1.10', '010', '0x1F', '.5', '.inf', 'true', 'null', '~', 'a b', 'a:b', 'a:', 'a: b', 'a#b', 'a #b', '-x', '-', 'a,b', 'a]', 'x{{ y }}', '{{ y }}', '"q"', "'q'", '""', '"a\\"b"', "'it''s'", '"a: b"', '[a, b]', '[]', '{}', '{a: [b, "c"]}', '[-a]', '[-]', '[a: b]', '{a}', '[a,]', '&x v', '*x', '!t v', '|', '%x', '@x', '?x', 'é', 'http://x/y', '...', 'a\\b', '#c'];
const comment = () => (next() < 0.15 ? ` # ${pick(['c', 'é', 'a: b', '- x'])}` : '');
function generate(indent, depth, lines) {
  const pad = ' '.repeat(indent);
  const isMapBlock = next() < 0.7;
  for (let n = 1 + Math.floor(next() * 4); n > 0; n--) {
    if (next() < 0.1) lines.push(next() < 0.5 ? '' : `${' '.repeat(Math.floor(next() * 6))}# comment`);
    if (isMapBlock) {
      const key = pick(KEYS);
      if (depth < 4 && next() < 0.35) {
        lines.push(`${pad}${key}:${comment()}`);
        generate(next() < 0.3 ? indent : indent + 1 + Math.floor(next() * 3), depth + 1, lines);
      } else lines.push(`${pad}${key}:${next() < 0.1 ? '' : ` ${pick(SCALARS)}`}${comment()}`);
    } else if (depth < 4 && next() < 0.3) {
      const sp = ' '.repeat(1 + Math.floor(next() * 2));
      lines.push(`${pad}-${sp}${pick(KEYS)}: ${pick(SCALARS)}${comment()}`);
      for (let j = Math.floor(next() * 3); j > 0; j--) lines.push(`${' '.repeat(indent + 1 + sp.length + (next() < 0.05 ? 1 : 0))}${pick(KEYS)}: ${pick(SCALARS)}`);
    } else lines.push(`${pad}- ${pick(SCALARS)}${comment()}`);
  }
}

let accepted = 0;
let mismatches = 0;
for (let i = 0; i < N; i++) {
  let text;
  if (i % 2 === 0) text = mutate(pick(corpus));
  else {
    const lines = [];
    generate(0, 0, lines);
    text = `${lines.join('\n')}\n`;
  }
  const fast = fastParse(text);
  if (!fast) continue;
  accepted++;
  const a = JSON.stringify(shape(fast));
  const b = JSON.stringify(viaYaml(text));
  if (a !== b) {
    mismatches++;
    if (mismatches <= 5) console.log(`MISMATCH on ${JSON.stringify(text)}\n fast: ${a.slice(0, 400)}\n yaml: ${b.slice(0, 400)}`);
  }
}
console.log(`${N} texts (corpus ${corpus.length} files), ${accepted} accepted by fastParse, ${mismatches} mismatches`);
process.exitCode = mismatches === 0 ? 0 : 1;
