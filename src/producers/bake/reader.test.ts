import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../model/index.js';
import { parseHcl } from './hcl.js';
import { readBake } from './reader.js';
import { readBakeFile } from './repo.js';
import { findBakeFiles } from '../finders.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'pinwatch-bake-'));
  for (const f of ['Dockerfile', 'app/Dockerfile', 'web/Dockerfile.prod', 'sub/Dockerfile', 'sub/ctx/Dockerfile', 'vendor/x/docker-bake.hcl']) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), f.endsWith('.hcl') ? 'target "x" {\n  tags = ["v/x"]\n}\n' : 'FROM alpine\n');
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function read(text: string, file = 'docker-bake.hcl') {
  const problems: Problem[] = [];
  const recipes = readBake(root, file, text, problems);
  return { recipes, problems };
}

describe('parseHcl: the bake subset of HCL2', () => {
  const cases: { name: string; text: string; want: unknown }[] = [
    { name: 'attribute with a number, bool, null', text: 'a = 1\nb = true\nc = null\nd = -2.5\n', want: [['a', 1], ['b', true], ['c', null], ['d', -2.5]] },
    { name: 'comments of all three kinds', text: '# x\n// y\n/* z\n w */ a = "v" # after\n', want: [['a', ['v']]] },
    { name: 'escapes and $${ literal', text: 'a = "q\\"\\n$${X}"\n', want: [['a', ['q"\n${X}']]] },
    { name: 'interpolation', text: 'a = "x-${Y}-z"\n', want: [['a', ['x-', { kind: 'variable', path: ['Y'], line: 1 }, '-z']]] },
    { name: 'heredoc with interpolation', text: 'a = <<EOT\nhi ${N}\nEOT\n', want: [['a', ['hi ', { kind: 'variable', path: ['N'], line: 1 }, '\n']]] },
    { name: 'indented heredoc', text: 'a = <<-EOT\n    x\n      y\n    EOT\n', want: [['a', ['x\n  y\n']]] },
  ];
  const simplify = (e: unknown): unknown => {
    const x = e as { kind: string; value?: unknown; parts?: unknown[] };
    if (x.kind === 'literal') return x.value;
    if (x.kind === 'template') return x.parts;
    return x;
  };
  for (const c of cases) it(c.name, () => expect(parseHcl(c.text).attributes.map((a) => [a.name, simplify(a.value)])).toEqual(c.want));

  it('blocks with labels, nested lists and objects, lines kept', () => {
    const body = parseHcl('\ntarget "app" {\n  tags = [\n    "a",\n    "b",\n  ]\n  args = {\n    X = "1"\n    "Y" : 2,\n  }\n}\n');
    expect(body.blocks).toMatchObject([{ type: 'target', labels: ['app'], line: 2, body: { attributes: [{ name: 'tags', line: 3, value: { kind: 'tuple' } }, { name: 'args', line: 7, value: { kind: 'object', entries: [{ key: 'X' }, { key: 'Y' }] } }] } }]);
  });

  const unsupported: [string, string][] = [
    ['a = join(",", ["x", "y"])\n', 'a function call (join)'],
    ['a = [for t in T : upper(t)]\n', 'a for expression'],
    ['a = { for k, v in M : k => v }\n', 'a for expression'],
    ['a = X ? "y" : "z"\n', 'a conditional expression'],
    ['a = X + 1\n', 'an operator expression'],
    ['a = "%{ if X }y%{ endif }"\n', 'a %{ } template directive'],
    ['a = T[0]\n', 'an index or splat expression'],
  ];
  for (const [text, what] of unsupported) {
    it(`keeps ${what} as unsupported, with its line (${text.trim()})`, () => {
      const v = parseHcl(`\n${text}b = 1\n`).attributes[0]!.value;
      const node = v.kind === 'template' ? v.parts.find((p) => typeof p !== 'string') : v;
      expect(node).toMatchObject({ kind: 'unsupported', what, line: 2 });
    });
  }

  const errors: [string, number, string][] = [
    ['a = "x\n', 1, 'unterminated string'],
    ['target "x" {\n  a = 1\n', 3, 'missing }'],
    ['a = [1, 2\n', 1, 'missing ]'],
    ['\n\na b\n', 3, 'expected = or a block'],
  ];
  for (const [text, line, msg] of errors) it(`syntax error: ${msg}`, () => expect(() => parseHcl(text)).toThrow(expect.objectContaining({ line, message: expect.stringContaining(msg) })));
});

describe('readBake', () => {
  it('targets with context, dockerfile (relative to the context), target, args, platforms, tags; variables with defaults; groups', () => {
    const { recipes, problems } = read(`variable "REGISTRY" {
  default = "ghcr.io/acme"
}
variable "TAG" {}
group "default" {
  targets = ["app", "web"]
}
target "app" {
  context = "app"
  tags = ["\${REGISTRY}/app:\${TAG}", "\${REGISTRY}/app:latest"]
  args = { GO_VERSION = "1.22" }
  platforms = ["linux/amd64", "linux/arm64"]
}
target "web" {
  context = "web"
  dockerfile = "Dockerfile.prod"
  target = "prod"
  tags = ["\${REGISTRY}/web"]
}
`);
    expect(problems).toEqual([]);
    expect(recipes).toEqual([
      expect.objectContaining({ kind: 'bake', makefile: 'docker-bake.hcl', target: 'target "app" (group default)', line: 8, context: 'app', dockerfile: 'app/Dockerfile', repositories: ['ghcr.io/acme/app'], command: 'docker buildx bake app: docker buildx build --build-arg GO_VERSION=1.22 --platform linux/amd64,linux/arm64 --tag ghcr.io/acme/app:⟨var TAG⟩ --tag ghcr.io/acme/app:latest app' }),
      expect.objectContaining({ target: 'target "web" (group default)', line: 14, context: 'web', dockerfile: 'web/Dockerfile.prod', stage: 'prod', repositories: ['ghcr.io/acme/web'] }),
    ]);
  });

  it('inherits: parents in order, args merged key by key, other attributes replaced; a template target is no recipe', () => {
    const { recipes, problems } = read(`target "_base" {
  args = { A = "1", B = "1" }
  platforms = ["linux/amd64"]
}
target "_arm" {
  platforms = ["linux/arm64"]
  args = { B = "2" }
}
target "app" {
  inherits = ["_base", "_arm"]
  context = "app"
  args = { C = "3" }
  tags = ["ghcr.io/r/app"]
}
`);
    expect(problems).toEqual([]);
    expect(recipes.map((r) => r.command)).toEqual(['docker buildx bake app: docker buildx build --build-arg A=1 --build-arg B=2 --build-arg C=3 --platform linux/arm64 --tag ghcr.io/r/app app']);
  });

  it('an inherits chain across three targets, and target.<name>.<attr> references', () => {
    const { recipes, problems } = read(`target "a" {
  context = "app"
}
target "b" {
  inherits = ["a"]
  tags = ["ghcr.io/r/b"]
}
target "c" {
  inherits = ["b"]
  tags = ["\${target.b.tags[0]}-c"]
  args = { CTX = target.a.context }
}
`);
    expect(recipes.map((r) => [r.target, r.context, r.repositories])).toEqual([
      ['target "b"', 'app', ['ghcr.io/r/b']],
      ['target "c"', 'app', []],
    ]);
    expect(recipes[1]!.command).toContain('--build-arg CTX=app');
    expect(problems.map((p) => [p.line, p.code])).toEqual([[10, 'bake-unsupported'], [8, 'recipe-tag-unreadable']]);
  });

  it('an inherits cycle is a problem and none of its targets is read; an unknown parent is a problem', () => {
    const { recipes, problems } = read(`target "x" {
  inherits = ["y"]
  tags = ["ghcr.io/r/x"]
}
target "y" {
  inherits = ["x"]
  tags = ["ghcr.io/r/y"]
}
target "z" {
  inherits = ["nope"]
  tags = ["ghcr.io/r/z"]
}
`);
    expect(recipes.map((r) => r.repositories[0])).toEqual(['ghcr.io/r/z']);
    expect(problems.map((p) => [p.line, p.code])).toEqual([[1, 'bake-inherits-cycle'], [10, 'bake-target-unknown']]);
    expect(problems[0]!.reason).toContain('x → y → x');
  });

  it('variables: defaults referring to variables, top-level attributes, undefined and self-referring ones, built-ins', () => {
    const { recipes, problems } = read(`REG = "ghcr.io/acme"
variable "IMAGE" {
  default = "\${REG}/app"
}
variable "LOOP" {
  default = "\${LOOP}"
}
target "app" {
  context = "app"
  tags = ["\${IMAGE}:1", "\${NOPE}/x", "\${LOOP}/y"]
  platforms = ["\${BAKE_LOCAL_PLATFORM}"]
}
`);
    expect(recipes[0]!.repositories).toEqual(['ghcr.io/acme/app']);
    expect(problems.map((p) => [p.line, p.code])).toEqual([
      [10, 'bake-variable-undefined'],
      [6, 'bake-variable-cycle'],
      [11, 'bake-value-unknown'],
      [8, 'recipe-tag-unreadable'],
      [8, 'recipe-tag-unreadable'],
    ]);
  });

  it('a context is relative to the bake file directory; cwd:// dockerfile relative to it too; a remote context names no directory', () => {
    const { recipes, problems } = read('target "a" {\n  context = "ctx"\n  tags = ["ghcr.io/r/a"]\n}\ntarget "b" {\n  dockerfile = "cwd://Dockerfile"\n  context = "ctx"\n  tags = ["ghcr.io/r/b"]\n}\ntarget "c" {\n  context = "https://github.com/acme/x.git"\n  tags = ["ghcr.io/r/c"]\n}\n', 'sub/docker-bake.hcl');
    expect(recipes.map((r) => [r.context, r.dockerfile])).toEqual([
      ['sub/ctx', 'sub/ctx/Dockerfile'],
      ['sub/ctx', 'sub/Dockerfile'],
      ['https://github.com/acme/x.git', 'Dockerfile'],
    ]);
    expect(problems.map((p) => p.code)).toEqual(['recipe-context-unknown']);
  });

  it('a group naming an unknown target, unsupported attributes (matrix, contexts, dockerfile-inline), and unknown blocks are problems', () => {
    const { problems } = read('group "default" {\n  targets = ["app", "gone"]\n}\ntarget "app" {\n  context = "app"\n  tags = ["ghcr.io/r/app"]\n  contexts = { src = "../src" }\n}\nresource "x" {}\n');
    expect(problems.map((p) => [p.line, p.code])).toEqual([[9, 'bake-block-unreadable'], [2, 'bake-target-unknown'], [7, 'bake-attribute-unsupported']]);
  });

  it('an untagged target that only exports files builds no image; one that loads an image is untagged', () => {
    const { recipes, problems } = read('target "bin" {\n  output = ["./bin"]\n}\ntarget "cache" {\n  output = ["type=cacheonly"]\n}\ntarget "img" {\n  output = ["type=docker"]\n}\n');
    expect(recipes.map((r) => r.target)).toEqual(['target "img"']);
    expect(problems.map((p) => [p.line, p.code])).toEqual([[7, 'recipe-untagged']]);
  });

  it('an unsupported expression in a field is one problem, its text shortened to its first line', () => {
    const { problems } = read('target "a" {\n  context = "app"\n  tags = ["ghcr.io/r/a"]\n  platforms = X != null ? [\n    "linux/amd64",\n  ] : []\n}\n');
    expect(problems).toEqual([expect.objectContaining({ line: 4, code: 'bake-unsupported', reason: 'an operator expression "X != null ? [ …" is not evaluated by pinwatch\'s bake reader' })]);
  });

  it('a syntax error is one problem with its line, and nothing is read', () => {
    expect(read('target "a" {\n  tags = ["x"\n}\n')).toEqual({ recipes: [], problems: [expect.objectContaining({ line: 2, code: 'bake-syntax-error' })] });
  });

  it('docker-bake.json: the same model, strings interpolated, lines from the JSON', () => {
    const { recipes, problems } = read(
      JSON.stringify({ variable: { REG: { default: 'ghcr.io/acme' } }, group: { default: { targets: ['app'] } }, target: { app: { context: 'app', tags: ['${REG}/app:1'], args: { V: '1' } } } }, null, 2),
      'docker-bake.json',
    );
    expect(problems).toEqual([]);
    expect(recipes).toEqual([expect.objectContaining({ target: 'target "app" (group default)', context: 'app', repositories: ['ghcr.io/acme/app'], line: 15 })]);
  });

  it('finds bake files anywhere but in vendored trees; an override file is reported, not read on its own', () => {
    writeFileSync(join(root, 'docker-bake.hcl'), 'target "root" {\n  tags = ["ghcr.io/r/root"]\n}\n');
    writeFileSync(join(root, 'docker-bake.override.hcl'), 'target "root" {\n  tags = ["ghcr.io/r/other"]\n}\n');
    writeFileSync(join(root, 'sub/docker-bake.json'), '{"target": {"s": {"tags": ["ghcr.io/r/s"]}}}');
    expect(findBakeFiles(root, [])).toEqual(['docker-bake.hcl', 'docker-bake.override.hcl', 'sub/docker-bake.json']);
    const problems: Problem[] = [];
    expect(readBakeFile(root, 'docker-bake.override.hcl', problems)).toEqual([]);
    expect(problems.map((p) => p.code)).toEqual(['bake-override-not-read']);
  });
});
