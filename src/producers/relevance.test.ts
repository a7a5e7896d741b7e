/**
 * What is not read because it cannot add to the build model: recipe lines that
 * name no build/write tool are not shell-parsed, and a Makefile the entry does
 * not reach is not loaded when neither it nor its includes spell one. Every
 * "maybe" case is read as before; the one listed change is deliberate: the read
 * problems of a Makefile that can build nothing are no longer findings.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config/defaults.js';
import { repoFileSystem } from '../make/index.js';
import { BUILD_OR_WRITE_WORDS, commandMayAct, makefileMayAct, scriptLinesMayAct, SUB_MAKE_WORDS } from './relevance.js';
import { loadBuildModel } from './repo.js';
import { readCommands } from './commands.js';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true })));

function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'pinwatch-relevance-'));
  roots.push(root);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  }
  return root;
}

describe('commandMayAct: an expanded Make line that cannot build, write a pin or run make is not parsed', () => {
  // [line, may build or write, may run make]
  const cases: [string, boolean, boolean][] = [
    ['docker buildx build -t ghcr.io/acme/x .', true, false],
    ['/usr/local/bin/docker build .', true, false],
    ['"doc"ker build .', true, false],
    ['do\\cker build .', true, false],
    ['podman build .', true, false],
    ['buildah bud .', true, false],
    ['nerdctl build .', true, false],
    ['ko build ./cmd/x', true, false],
    ["yq -i '.a = 1' values.yaml", true, false],
    ["sed -i 's|a|b|' values.yaml", true, false],
    ['echo ghcr.io/acme/x:v1 > images/x.tag', true, false],
    ['make -C packages/x image', false, true],
    ['gmake image', false, true],
    // a shell variable can bring a word in only from an assignment on the line (or the environment: below)
    ['X=docker; $X build .', true, true],
    ['export M=gmake && $M -C x', true, true],
    ['echo $IMAGE > out', false, false],
    ['$(which docker) build .', true, false],
    ['`cat cmd` build .', false, false],
    ['echo "$(date)" --tag=v1', true, true], // an = and a $: taken as maybe
    ['rm -rf charts/', false, false],
    ['helm unittest .', false, false],
    ['cozyvalues-gen -m bucket -v values.yaml', false, false],
    ['', false, false],
  ];
  for (const [line, acts, makes] of cases) {
    it(JSON.stringify(line), () => {
      expect(commandMayAct(line, BUILD_OR_WRITE_WORDS)).toBe(acts);
      expect(commandMayAct(line, SUB_MAKE_WORDS)).toBe(makes);
    });
  }

  it('with an environment (exported Make variables), any variable reference may bring a word in', () => {
    const env = new Map([['DOCKER', 'docker']]);
    expect(commandMayAct('$DOCKER build -t x .', BUILD_OR_WRITE_WORDS, env)).toBe(true);
    expect(commandMayAct('$DOCKER build -t x .', BUILD_OR_WRITE_WORDS, new Map())).toBe(false);
    expect(commandMayAct('helm unittest .', BUILD_OR_WRITE_WORDS, env)).toBe(false);
    expect(readCommands([{ text: '$DOCKER build -t x .', file: 'Makefile', line: 1 }], '/repo', { env }).builds).toHaveLength(1);
    expect(readCommands([{ text: '$DOCKER build -t x .', file: 'Makefile', line: 1 }], '/repo').builds).toHaveLength(0);
  });

  it('every line it calls "no" really gives nothing to the command reader', () => {
    const noes = cases.filter(([line, acts]) => !acts && line !== '').map(([text]) => ({ text, file: 'Makefile', line: 1 }));
    const facts = readCommands(noes, '/repo');
    expect({ writes: facts.writes.length, builds: facts.builds.length }).toEqual({ writes: 0, builds: 0 });
    const noMake = cases.filter(([line, , makes]) => !makes && line !== '').map(([text]) => ({ text, file: 'Makefile', line: 1 }));
    expect(readCommands(noMake, '/repo').makes).toEqual([]);
  });
});

describe('scriptLinesMayAct: the lines of a workflow run: script that can build, write, call make or move the next lines', () => {
  const one = (text: string, env?: Map<string, string>) => scriptLinesMayAct([{ text }], env).length === 1;
  const cases: [string, boolean][] = [
    ['docker buildx build -t ghcr.io/acme/x .', true],
    ['make -C packages/x image', true],
    ['echo ghcr.io/acme/x:v1 > images/x.tag', true],
    ['cd packages/x', true],
    ['c"d" packages/x', true],
    ['TAG=v1', true],
    ['export REGISTRY=ghcr.io/acme', true],
    ['echo "$TAG"', false], // no variable can spell a tool: the env says none, and no line assigns
    ['helm unittest .', false],
    ['rm -rf charts/', false],
    ['echo done', false],
    ['if [ -n "x" ]; then', false],
    ['fi', false],
  ];
  for (const [line, may] of cases) it(JSON.stringify(line), () => expect(one(line)).toBe(may));

  it('a $ line is a maybe when an env value spells a tool, or once a line has assigned', () => {
    expect(one('$TOOL build .', new Map([['TOOL', 'docker']]))).toBe(true);
    expect(one('$TOOL build .', new Map([['TOOL', '/usr/bin/podman']]))).toBe(true);
    expect(one('$TAG build .', new Map([['TAG', 'v1']]))).toBe(false);
    const lines = ['echo $A', 'X=1', 'echo $B', 'echo done'].map((text) => ({ text }));
    expect(scriptLinesMayAct(lines, new Map([['A', 'v1']])).map((l) => l.text)).toEqual(['X=1', 'echo $B']);
  });

  it('one script read with and without the lines it leaves out gives the same builds, writes and make calls', () => {
    const scripts: [Map<string, string>, string[]][] = [
      [
        new Map([['DOCKER', 'docker'], ['REG', 'ghcr.io/acme']]),
        [
          'set -euo pipefail',
          'echo building $REG',
          'TAG=v1',
          'helm dependency build charts/x',
          'cd packages/api',
          'ls -la',
          '$DOCKER build -t $REG/api:$TAG .',
          'cd ../..',
          'export IMG=$REG/web',
          'if true; then',
          '  docker buildx build -t $IMG:$TAG web',
          'fi',
          'make -C packages/x image TAG=$TAG',
          'echo "$REG/x:$TAG" > images/x.tag',
        ],
      ],
      [
        new Map([['REG', 'ghcr.io/acme'], ['TAG', 'v2']]),
        ['echo $TAG', 'echo start', 'B=dock', 'C=${B}er', '$C build -t $REG/c:$TAG c', 'echo $REG'],
      ],
    ];
    for (const [env, lines] of scripts) {
      const script = lines.map((text, i) => ({ text, file: '.github/workflows/ci.yaml', line: i + 1 }));
      const all = readCommands(script, '/repo', { env, oneShell: true });
      const kept = scriptLinesMayAct(script, env);
      expect(kept.length).toBeLessThan(script.length);
      const some = readCommands(kept, '/repo', { env, oneShell: true });
      const strip = (f: typeof all) => ({ builds: f.builds.map(({ order: _o, ...b }) => b), makes: f.makes, writes: f.writes.map(({ order: _o, ...w }) => w) });
      expect(strip(some)).toEqual(strip(all));
      expect(all.builds.length).toBeGreaterThan(0);
    }
    const first = readCommands(scripts[0]![1].map((text, i) => ({ text, file: 'w', line: i + 1 })), '/repo', { env: scripts[0]![0], oneShell: true });
    expect(first.builds.map((b) => b.tags)).toEqual([['ghcr.io/acme/api:v1'], ['ghcr.io/acme/web:v1']]);
    expect(first.builds.map((b) => b.context)).toEqual(['/repo/packages/api', '/repo/web']);
    expect(first.makes).toHaveLength(1);
  });
});

describe('makefileMayAct: whether a Makefile (with its includes) can hold a build or a pin write', () => {
  const cases: [string, Record<string, string>, boolean][] = [
    ['spells docker itself', { 'a/Makefile': 'image:\n\tdocker build .\n' }, true],
    ['a tool only in a variable', { 'a/Makefile': 'B := buildah\nimage:\n\t$(B) bud .\n' }, true],
    ['nothing but helm', { 'a/Makefile': 'test:\n\thelm unittest .\n' }, false],
    ['the tool in an include (make dir)', { 'a/Makefile': 'include ../hack/b.mk\nimage:\n\t$(BUILD) .\n', 'hack/b.mk': 'BUILD := docker build\n' }, true],
    ['an include of nothing relevant', { 'a/Makefile': 'include ../hack/p.mk\n', 'hack/p.mk': 'help:\n\t@echo help\n' }, false],
    ['nested includes', { 'a/Makefile': 'include ../hack/p.mk\n', 'hack/p.mk': 'include q.mk\n', 'hack/q.mk': 'X := sed\n' }, true],
    ['an include named by a variable: maybe', { 'a/Makefile': 'include $(ROOT)/p.mk\n' }, true],
    ['an include glob: maybe', { 'a/Makefile': 'include *.mk\n' }, true],
    ['a missing required include (the reader reports it): read', { 'a/Makefile': 'include nope.mk\n' }, true],
    ['a missing optional include: nothing', { 'a/Makefile': '-include nope.mk\nsinclude none.mk\nx:\n\ttrue\n' }, false],
    ['an include in an $(eval): maybe', { 'a/Makefile': '$(eval include p.mk)\n', 'a/p.mk': '\n' }, true],
    ['a commented include: nothing', { 'a/Makefile': '# include p.mk\nx:\n\ttrue\n' }, false],
    ['an include loop (the reader reports it): read', { 'a/Makefile': 'include a.mk\n', 'a/a.mk': 'include Makefile\n' }, true],
  ];
  for (const [name, files, want] of cases) {
    it(name, () => {
      const root = repo(files);
      expect(makefileMayAct(join(root, 'a/Makefile'), join(root, 'a'), repoFileSystem(root))).toBe(want);
    });
  }

  it('an unreadable Makefile (outside the repository through a symlink is unreadable too): read, so its problem is listed', () => {
    const root = repo({});
    expect(makefileMayAct(join(root, 'missing/Makefile'), join(root, 'missing'), repoFileSystem(root))).toBe(true);
  });
});

describe('loadBuildModel reads only the Makefiles that can matter', () => {
  const FILES = {
    Makefile: 'build:\n\t$(MAKE) -C app image\n',
    'app/Makefile': 'include ../hack/common.mk\nimage:\n\t$(BUILD) -t $(REGISTRY)/app:v1 .\n\techo "$(REGISTRY)/app:v1" > app.tag\n',
    'app/Dockerfile': 'FROM scratch\n',
    'app/app.tag': 'ghcr.io/acme/app:v1\n',
    'hack/common.mk': 'REGISTRY := ghcr.io/acme\nBUILD := docker build\n',
    // not reached; builds through its include: read
    'tool/Makefile': 'include ../hack/common.mk\nimage:\n\t$(BUILD) -t $(REGISTRY)/tool:v1 .\n',
    'tool/Dockerfile': 'FROM scratch\n',
    // not reached, can build nothing, and has a read problem: not read
    'docs/Makefile': 'ifeq ($(shell uname),Darwin)\nX := 1\nendif\nserve:\n\thugo serve\n',
    // not reached, can build nothing, but reached by the entry's walk if it were: see the next test
    'chart/Makefile': 'test:\n\thelm unittest .\n\tendef\n',
  };

  it('finds every recipe and producer, and lists the problems of what it read', async () => {
    const root = repo(FILES);
    const model = await loadBuildModel(root, defaultConfig());
    expect(model.recipes.map((r) => `${r.makefile}:${r.target} ${r.repositories.join(',')}`)).toEqual(['app/Makefile:image ghcr.io/acme/app', 'tool/Makefile:image ghcr.io/acme/tool']);
    expect(model.producers.map((p) => `${p.id} built=${p.built}`)).toEqual(['app/Makefile:image built=true']);
    // deliberate: docs/Makefile's "cannot decide ifeq ($(shell uname),Darwin)" is not listed — nothing in it can build
    expect(model.problems.filter((p) => p.file === 'docs/Makefile' || p.file === 'chart/Makefile')).toEqual([]);
  });

  it('a Makefile the build entry reaches is read whatever it spells, and its problems are listed', async () => {
    const root = repo({ ...FILES, Makefile: 'build:\n\t$(MAKE) -C app image\n\t$(MAKE) -C docs serve\n' });
    const model = await loadBuildModel(root, defaultConfig());
    expect(model.problems.filter((p) => p.file === 'docs/Makefile').map((p) => p.code)).toEqual(['make-condition-assumed']);
  });

  it('a Makefile that can build nothing but cannot be told (a computed include) is read, and its problems are listed', async () => {
    const root = repo({ ...FILES, 'docs/Makefile': `include $(HERE)/none.mk\n${FILES['docs/Makefile']}` });
    const model = await loadBuildModel(root, defaultConfig());
    expect(model.problems.filter((p) => p.file === 'docs/Makefile').map((p) => p.code).sort()).toEqual(['make-condition-assumed', 'make-include-missing']);
  });
});
