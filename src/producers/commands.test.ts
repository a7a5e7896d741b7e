import { describe, expect, it } from 'vitest';
import { readBuild } from './build-command.js';
import { readCommands } from './commands.js';

const DIR = '/repo/pkg';
const at = { file: 'pkg/Makefile', line: 3 };
/** Lines as make hands them to the shell (already expanded: `$$` is now `$`). */
const run = (...lines: string[]) => readCommands(lines.map((text, i) => ({ text, file: 'pkg/Makefile', line: i + 1 })), DIR);

describe('readBuild', () => {
  const cases: { argv: string[]; want: Record<string, unknown> | undefined }[] = [
    {
      argv: ['docker', 'buildx', 'build', '-f', 'images/a/Dockerfile', '..', '--tag', 'reg/a:1', '--target', 'prod', '--build-arg', 'X=1', '--metadata-file', 'images/a.json', '--push=1'],
      want: { tool: 'docker buildx build', context: '/repo', dockerfile: '/repo/pkg/images/a/Dockerfile', stage: 'prod', tags: ['reg/a:1'], outputs: ['images/a.json'] },
    },
    { argv: ['docker', 'build', '-treg/b:1', '--file=Dockerfile.b', '.'], want: { tool: 'docker build', context: '/repo/pkg', dockerfile: '/repo/pkg/Dockerfile.b', tags: ['reg/b:1'] } },
    { argv: ['docker', 'image', 'build', '--tag=reg/c', '--provenance', 'false', 'ctx'], want: { tool: 'docker image build', context: '/repo/pkg/ctx', tags: ['reg/c'] } },
    { argv: ['buildah', 'bud', '-t', 'reg/d', '--iidfile', 'id', 'ctx'], want: { tool: 'buildah bud', context: '/repo/pkg/ctx', tags: ['reg/d'], outputs: ['id'] } },
    { argv: ['podman', 'build', '-t', 'reg/e', 'https://example.test/repo.git'], want: { tool: 'podman build', context: '', contextArg: 'https://example.test/repo.git' } },
    { argv: ['docker', 'push', 'reg/a:1'], want: undefined },
    { argv: ['docker', 'buildx', 'imagetools', 'inspect', 'reg/a'], want: undefined },
  ];
  it.each(cases)('$argv', ({ argv, want }) => {
    const got = readBuild(argv, DIR, argv.join(' '), at, 1);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toMatchObject(want);
  });
});

describe('readCommands', () => {
  it.each([
    ['cat ./Dockerfile | DOCKER_BUILDKIT=1 docker build --build-arg X=1 . -t reg/a:1 --file -', '/repo/pkg/Dockerfile'],
    ['docker build -t reg/a:1 -f - . < build/Dockerfile', '/repo/pkg/build/Dockerfile'],
    ['cat a/Dockerfile | docker build --file=- -t reg/a:1 .', '/repo/pkg/a/Dockerfile'],
    ['generate-dockerfile | docker build -f - -t reg/a:1 .', '/repo/pkg/-'], // stdin from a program: as written
  ])('a Dockerfile read from stdin is the file stdin is: %s', (line, dockerfile) => {
    expect(run(line).builds.map((b) => b.dockerfile)).toEqual([dockerfile]);
  });

  it('reads sub-makes with -C, -f, --directory=, variables and targets', () => {
    const facts = run('make -C ../other -f build.mk TAG=v1 image chart', 'make --directory=sub', 'cd sub && make -j 4 all');
    expect(facts.makes.map((m) => [m.dir, m.file, m.variables, m.targets])).toEqual([
      ['/repo/other', '/repo/other/build.mk', { TAG: 'v1' }, ['image', 'chart']],
      ['/repo/pkg/sub', undefined, {}, []],
      ['/repo/pkg/sub', undefined, {}, ['all']],
    ]);
  });

  it('marks a sub-make folder reached from an absolute spelling (shown as it is outside the repository, never relative to where it sits)', () => {
    const facts = run('make -C ../other', 'cd /tmp/sandbox && make -C sub', 'make -C /opt/x', 'make --directory=/opt/y', 'make -C/opt/z', 'cd sub && make', 'cd /tmp/s; cd pkg; make');
    expect(facts.makes.map((m) => [m.dir, m.fromSlash])).toEqual([
      ['/repo/other', undefined],
      ['/tmp/sandbox/sub', true],
      ['/opt/x', true],
      ['/opt/y', true],
      ['/opt/z', true],
      ['/repo/pkg/sub', undefined],
      ['/tmp/s/pkg', true],
    ]);
    // a Makefile line runs in a shell of its own: the next line starts where the recipe does
    expect(run('cd /tmp/a', 'make -C b').makes.map((m) => [m.dir, m.fromSlash])).toEqual([['/repo/pkg/b', undefined]]);
  });

  it('resolves written files against -C/cd and keeps the written value', () => {
    const facts = run(`cd ../x && V=reg/x:1 yq -i '.a.image = strenv(V) | .b.image = strenv(V)' values.yaml`);
    expect(facts.writes.map((w) => [w.abs, w.keyPath, w.value])).toEqual([
      ['/repo/x/values.yaml', 'a.image', 'reg/x:1'],
      ['/repo/x/values.yaml', 'b.image', 'reg/x:1'],
    ]);
  });

  it('ignores yq edits that cannot hold a ref and sed edits that are not about images', () => {
    const facts = run(`yq -i '.properties = {}' values.schema.json`, `yq -i 'del(.a)' values.yaml`, `sed -i 's/ns: a/ns: b/' t.yaml`, `sed -i 's|image:.*|image: {{ .Values.x }}|' t.yaml`, `yq .a.b values.yaml > out.json`);
    expect(facts.writes).toEqual([]);
  });

  it('a schema edit is not a stamp: quoted words and command output spliced into the expression are not refs (cozystack vm-instance)', () => {
    const facts = run(
      `yq -o json -i '.properties.disks.items.type = "object" | .properties.disks.default = []' values.schema.json`,
      `yq -i -o json '.properties.externalPorts.items.type = "integer"' values.schema.json`,
      `T=$(yq e '.metadata.name' -o=json -r t.yaml | yq 'split(" ")' -o json) && yq -i -o json ".properties.instanceType.optional=true | .properties.instanceType.enum = \${T}" values.schema.json`,
      `yq -i '.a.tag = "v1.2.3" | .b.image = "reg/b:v1" | .c.image = "$(cat c.tag)"' values.yaml`,
    );
    expect(facts.writes.map((w) => [w.abs, w.keyPath])).toEqual([
      ['/repo/pkg/values.yaml', 'a.tag'],
      ['/repo/pkg/values.yaml', 'b.image'],
      ['/repo/pkg/values.yaml', 'c.image'],
    ]);
  });

  it('sees sed -i in every spelling, and BSD sed -i with an empty suffix', () => {
    const facts = run(`sed -i '' -e "s|image: .*|image: $I|" a.yaml`, `sed -i.bak -E "s|image: x|image: reg/x@sha256:ab|" b.yaml`, `sed --in-place "s|^image: .*|image: $I|" c.yaml`);
    expect(facts.writes.map((w) => [w.abs, w.keyPath, w.via])).toEqual([
      ['/repo/pkg/a.yaml', undefined, 'sed'],
      ['/repo/pkg/b.yaml', undefined, 'sed'],
      ['/repo/pkg/c.yaml', 'image', 'sed'],
    ]);
  });

  it('a .tag redirect from yq or cat records what it copies', () => {
    const facts = run('yq .a.image ../y/values.yaml > images/a.tag', 'cat images/a.tag >> images/b.tag', 'echo "$(yq e .c.image values.yaml)" > images/c.tag');
    expect(facts.writes.map((w) => [w.abs, w.copyOf])).toEqual([
      ['/repo/pkg/images/a.tag', { abs: '/repo/y/values.yaml', keyPath: 'a.image' }],
      ['/repo/pkg/images/b.tag', { abs: '/repo/pkg/images/a.tag' }],
      ['/repo/pkg/images/c.tag', { abs: '/repo/pkg/values.yaml', keyPath: 'c.image' }],
    ]);
  });
});
