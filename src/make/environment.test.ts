import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { treesRemovedAfterEach } from '../../test/support/tree.js';
import { expandRecipe, loadMakefile, readerWithEnvironment, repoFileSystem, type MakeReader } from './index.js';

const makeTree = treesRemovedAfterEach();
const tree = (files: Record<string, string>): string => makeTree(files).dir;

type Env = Record<string, string> | undefined;

/** Everything a reader holds that a reading decides, in order: variables (own scope, in definition order), rules, problems. */
function state(r: MakeReader) {
  const db = r.db;
  return {
    vars: db.vars.ownEntries(),
    rules: [...db.rules],
    patternRules: db.patternRules,
    defaultGoal: db.defaultGoal,
    files: db.files,
    problems: db.problems,
    build: expandRecipe(r, 'build')?.commands.map((c) => c.text),
  };
}

const load = (root: string, environment: Env, variables: Record<string, string> = {}) =>
  loadMakefile(join(root, 'Makefile'), { root, variables, ...(environment ? { environment } : {}) });

/** The reader derived from a read under `from`, or undefined; when derived it must equal a new read under `to`. */
function derive(files: Record<string, string>, from: Env, to: Env, variables: Record<string, string> = {}) {
  const root = tree(files);
  const base = load(root, from, variables);
  const derived = readerWithEnvironment(base, from, to, { root, fs: repoFileSystem(root) });
  if (derived) expect(state(derived)).toEqual(state(load(root, to, variables)));
  return derived;
}

const COMMON = [
  'REGISTRY ?= ghcr.io/example',
  'IMAGE_TAG ?= dev',
  'export PUSH ?= 0',
  'NAME := app',
  'build:',
  '\tdocker build -t $(REGISTRY)/$(NAME):$(IMAGE_TAG) --push=$(PUSH) .',
  '',
].join('\n');

describe('readerWithEnvironment: a reading under one environment derived from one under another', () => {
  // [case, Makefile, from, to, derived?]
  const table: [string, string, Env, Env, boolean][] = [
    ['names the Makefile never looks at', COMMON, undefined, { GITHUB_SHA: 'abc', CI: 'true' }, true],
    ['?= defaults both environments override, values differing', COMMON, { REGISTRY: 'a.io/x', IMAGE_TAG: 'main' }, { REGISTRY: 'b.io/y', IMAGE_TAG: 'pr-1' }, true],
    ['a ?= default one environment sets and the other does not', COMMON, undefined, { REGISTRY: 'b.io/y' }, false],
    ['an exported ?= both set', COMMON, { PUSH: '1' }, { PUSH: '2' }, true],
    ['a variable := expands', 'TAG := $(VERSION)-x\nbuild:\n\techo $(TAG)\n', { VERSION: '1' }, { VERSION: '2' }, false],
    ['a conditional on it', 'ifeq ($(MODE),fast)\nX = 1\nendif\nbuild:\n\techo $(X)\n', { MODE: 'fast' }, { MODE: 'slow' }, false],
    ['ifdef on it', 'ifdef MODE\nX = 1\nendif\nbuild:\n\techo $(X)\n', { MODE: 'a' }, { MODE: 'b' }, false],
    ['a file assignment over it (=), both set', 'MODE = file\nbuild:\n\techo $(MODE)\n', { MODE: 'a' }, { MODE: 'b' }, true],
    ['a file assignment over it, one environment only', 'MODE = file\nbuild:\n\techo $(MODE)\n', undefined, { MODE: 'b' }, false],
    ['+= onto it', 'MODE += more\nbuild:\n\techo $(MODE)\n', { MODE: 'a' }, { MODE: 'b' }, false],
    ['unexport of it, both set', 'unexport MODE\nbuild:\n\techo hi\n', { MODE: 'a' }, { MODE: 'b' }, true],
    ['$(origin) of it, both set', 'O := $(origin MODE)\nbuild:\n\techo $(O)\n', { MODE: 'a' }, { MODE: 'b' }, true],
    ['$(value) of it', 'V := $(value MODE)\nbuild:\n\techo $(V)\n', { MODE: 'a' }, { MODE: 'b' }, false],
    ['a computed name', 'K = MO\nV := $($(K)DE)\nbuild:\n\techo $(V)\n', { MODE: 'a' }, { MODE: 'b' }, false],
    ['an $(eval) that reads it', '$(eval X := $(MODE))\nbuild:\n\techo $(X)\n', { MODE: 'a' }, { MODE: 'b' }, false],
    ['an include named by it', '-include $(MODE).mk\nbuild:\n\techo hi\n', { MODE: 'a' }, { MODE: 'b' }, false],
    ['a default make sets (SHELL), never looked at', 'build:\n\techo hi\n', undefined, { SHELL: '/bin/bash' }, true],
    ['a default make sets (CURDIR), looked at', 'D := $(CURDIR)\nbuild:\n\techo $(D)\n', undefined, { CURDIR: '/elsewhere' }, false],
    ['names dropped and added at once', COMMON, { REGISTRY: 'a.io', OTHER: '1' }, { REGISTRY: 'b.io', THIRD: '3' }, true],
    ['the same environment in another order', COMMON, { REGISTRY: 'a.io', IMAGE_TAG: 't' }, { IMAGE_TAG: 't', REGISTRY: 'a.io' }, true],
  ];
  it.each(table)('%s', (_case, makefile, from, to, derived) => {
    const r = derive({ Makefile: makefile }, from, to);
    expect(r !== undefined).toBe(derived);
  });

  it('an included file is part of the reading', () => {
    const files = { Makefile: 'include common.mk\nbuild:\n\techo $(FLAGS)\n', 'common.mk': 'FLAGS := --tag=$(IMAGE_TAG)\n' };
    expect(derive(files, { IMAGE_TAG: 'a' }, { IMAGE_TAG: 'b' })).toBeUndefined();
    expect(derive(files, { IMAGE_TAG: 'a' }, { IMAGE_TAG: 'a', CI: '1' })).toBeDefined();
  });

  it('a name also given on the command line is not derived', () => {
    expect(derive({ Makefile: COMMON }, { REGISTRY: 'a.io' }, { REGISTRY: 'b.io' }, { REGISTRY: 'c.io' })).toBeUndefined();
    expect(derive({ Makefile: COMMON }, { REGISTRY: 'a.io' }, { REGISTRY: 'b.io' }, { IMAGE_TAG: 'x' })).toBeDefined();
  });

  it('a base changed by an $(eval) while expanding is not derived from', () => {
    const root = tree({ Makefile: 'build:\n\t$(eval X := 1)echo $(X)\n' });
    const base = load(root, { A: '1' });
    expect(readerWithEnvironment(base, { A: '1' }, { A: '2' }, { root, fs: repoFileSystem(root) })).toBeDefined();
    expandRecipe(base, 'build');
    expect(readerWithEnvironment(base, { A: '1' }, { A: '2' }, { root, fs: repoFileSystem(root) })).toBeUndefined();
  });

  it('a derived reader answers as its own environment says, not as the base', () => {
    const root = tree({ Makefile: COMMON });
    const base = load(root, { REGISTRY: 'a.io/x' });
    const derived = readerWithEnvironment(base, { REGISTRY: 'a.io/x' }, { REGISTRY: 'b.io/y' }, { root, fs: repoFileSystem(root) })!;
    expect(expandRecipe(derived, 'build')?.commands[0]?.text).toBe('docker build -t b.io/y/app:dev --push=0 .');
    expect(expandRecipe(base, 'build')?.commands[0]?.text).toBe('docker build -t a.io/x/app:dev --push=0 .');
  });
});
