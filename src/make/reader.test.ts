import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expand, expandRecipe, hasMarker, loadMakefile, lookupVariable } from './index.js';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'pinwatch-make-'));
  dirs.push(root);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

function load(files: Record<string, string>, makefile = 'Makefile') {
  const root = tree(files);
  return loadMakefile(join(root, makefile), { root });
}

const value = (r: ReturnType<typeof load>, name: string) => lookupVariable(name, { vars: r.db.vars });
const commands = (r: ReturnType<typeof load>, target: string) => expandRecipe(r, target)?.commands.map((c) => c.text);

describe('assignments', () => {
  it('handles every flavour with Make semantics', () => {
    const r = load({
      Makefile: [
        'A = 1',
        'LAZY = $(A)',
        'NOW := $(A)',
        'A = 2',
        'B ?= first',
        'B ?= second',
        'C = x',
        'C += y',
        'S := s',
        'S += $(A)',
        'export NAME=objectstorage-controller',
        'export NAMESPACE=cozy-$(NAME)',
        'override O = o',
        'all: ; @echo $(LAZY)',
        '',
      ].join('\n'),
    });
    expect(value(r, 'LAZY')).toBe('2');
    expect(value(r, 'NOW')).toBe('1');
    expect(value(r, 'B')).toBe('first');
    expect(value(r, 'C')).toBe('x y');
    expect(value(r, 'S')).toBe('s 2');
    expect(value(r, 'NAMESPACE')).toBe('cozy-objectstorage-controller');
    expect(r.db.vars.get('NAME')?.exported).toBe(true);
    expect(value(r, 'O')).toBe('o');
    expect(commands(r, 'all')).toEqual(['echo 2']);
    expect(r.db.problems).toEqual([]);
  });

  it('command-line variables win over the file', () => {
    const root = tree({ Makefile: 'TAG ?= dev\nX = $(TAG)\n' });
    const r = loadMakefile(join(root, 'Makefile'), { root, variables: { TAG: 'v1' } });
    expect(lookupVariable('X', { vars: r.db.vars })).toBe('v1');
  });

  it('strips comments, but not a # inside a function call or escaped', () => {
    const r = load({ Makefile: 'A := 1 # note\nB := $(subst #,x,a#b) # note\nC := a\\#b\n' });
    expect(value(r, 'A')).toBe('1');
    expect(value(r, 'B')).toBe('axb');
    expect(value(r, 'C')).toBe('a#b');
  });

  it('joins continuation lines', () => {
    const r = load({ Makefile: 'X := a \\\n    b \\\n\tc\nall:\n\techo one \\\n\t  two\n' });
    expect(value(r, 'X')).toBe('a b c');
    expect(commands(r, 'all')).toEqual(['echo one two']);
    expect(expandRecipe(r, 'all')?.commands[0]?.line).toBe(5);
  });
});

describe('include', () => {
  it('reads includes relative to the including Makefile and sees their variables', () => {
    const r = load(
      {
        'hack/common.mk': 'REGISTRY ?= ghcr.io/acme\ndefine image-tags\n--tag $(REGISTRY)/$(1):$(2)\nendef\n',
        'packages/x/Makefile': 'include ../../hack/common.mk\nREGISTRY = ignored-because-later?\nall:\n\tdocker build . $(call image-tags,x,dev)\n',
      },
      'packages/x/Makefile',
    );
    expect(r.db.files).toEqual(['packages/x/Makefile', 'hack/common.mk']);
    expect(commands(r, 'all')).toEqual(['docker build . --tag ignored-because-later?/x:dev']);
  });

  it('a missing include is a problem with file:line, not a crash; -include is quiet', () => {
    const r = load({ Makefile: 'A = 1\ninclude nope.mk\n-include optional.mk\nall:\n\techo $(A)\n' });
    expect(r.db.problems).toEqual([expect.objectContaining({ file: 'Makefile', line: 2, code: 'make-include-missing' })]);
    expect(commands(r, 'all')).toEqual(['echo 1']);
  });
});

describe('conditionals', () => {
  it('evaluates what it can and notes what it assumed', () => {
    const r = load({
      Makefile: [
        'OCI ?=',
        'ifneq ($(strip $(OCI)),)',
        'PUSH := 0',
        'else',
        'PUSH := 1',
        'endif',
        'ifeq ($(shell uname),Darwin)',
        'SED := sed -i ""',
        'else',
        'SED := sed -i',
        'endif',
        'ifdef PUSH',
        'D := defined',
        'endif',
        'ifndef NOPE',
        'N := not-defined',
        'endif',
        'ifeq "a" "b"',
        'Q := wrong',
        'else ifeq "a" "a"',
        'Q := chained',
        'else',
        'Q := last',
        'endif',
        'all:',
        'ifeq ($(PUSH),1)',
        '\techo push',
        'else',
        '\techo no-push',
        'endif',
        '',
      ].join('\n'),
    });
    expect(value(r, 'PUSH')).toBe('1');
    expect(value(r, 'SED')).toBe('sed -i ""');
    expect(value(r, 'D')).toBe('defined');
    expect(value(r, 'N')).toBe('not-defined');
    expect(value(r, 'Q')).toBe('chained');
    expect(commands(r, 'all')).toEqual(['echo push']);
    expect(r.db.problems).toEqual([expect.objectContaining({ line: 7, code: 'make-condition-assumed' })]);
  });

  it("a note names the repository's own absolute path relative to it, so no finding depends on the checkout's place (gateway's $(abspath …))", () => {
    const r = load({ Makefile: 'ROOT := $(abspath .)\nifeq ($(shell uname),$(ROOT)/tools)\nX := 1\nendif\nifeq ($(shell uname),$(ROOT))\nY := 1\nendif\n' });
    expect(r.db.problems.map((p) => p.reason)).toEqual([
      'cannot decide "ifeq ($(shell uname),$(ROOT)/tools)" (compares ⟨shell uname⟩ with tools); took the first branch',
      'cannot decide "ifeq ($(shell uname),$(ROOT))" (compares ⟨shell uname⟩ with .); took the first branch',
    ]);
  });

  it('reads a line a function expands to a rule as that rule, and $(shell pwd) as the directory make runs in', () => {
    const r = load({ Makefile: 'G := image push\n$(if $(G),$(G): %: _run)\n_run:\n\techo run\nHERE := $(shell pwd -P)\nOTHER := $(shell pwd; ls)\n' });
    expect(r.db.problems).toEqual([]);
    expect(expandRecipe(r, 'push')?.prerequisites).toEqual(['_run']);
    expect(value(r, 'HERE')).toBe(r.db.dir);
    expect(value(r, 'OTHER')).toMatch(/^⟨shell/);
  });

  it("ends a function recursing over a value only the run knows (flux2's rwildcard over $(wildcard …)) without a too-deep problem", () => {
    const r = load({ Makefile: 'rwildcard=$(foreach d,$(wildcard $(1:=/*)),$(call rwildcard,$d,$2) $(filter $(subst *,%,$2),$d))\nGO := $(call rwildcard,pkg,*.go)\nfact = $(if $(filter 0,$(1)),1,$(call fact,$(shell expr $(1) - 1)))\nF := $(call fact,3)\n' });
    expect(r.db.problems).toEqual([]);
    expect(value(r, 'GO')).toMatch(/⟨/);
    expect(value(r, 'F')).toMatch(/⟨/);
  });

  it('decides a comparison whose unknown side has literal text the known side cannot match (dapr, loki)', () => {
    const r = load({
      Makefile: [
        'DAPR_REGISTRY ?= ghcr.io/$(shell git config owner)',
        'ifeq ($(DAPR_REGISTRY),)',
        'R := empty',
        'else',
        'R := set',
        'endif',
        'ifneq ($(shell uname)-linux,)',
        'L := set',
        'endif',
        'ifeq ($(shell uname)-linux,Darwin-linux)',
        'M := maybe',
        'endif',
        'ifeq (v$(shell cat VERSION),x1)',
        'V := wrong',
        'else',
        'V := right',
        'endif',
        '',
      ].join('\n'),
    });
    expect([value(r, 'R'), value(r, 'L'), value(r, 'V')]).toEqual(['set', 'set', 'right']);
    // `⟨shell uname⟩-linux` could be `Darwin-linux`: still assumed, and said
    expect(r.db.problems.map((p) => [p.line, p.code])).toEqual([[10, 'make-condition-assumed']]);
  });
});

describe('rules', () => {
  it('multi-target rules expand per target with $(eval) scoped to the target', () => {
    const r = load({
      Makefile: [
        'image: image-controller image-sidecar',
        'image-controller image-sidecar:',
        '\t$(eval TARGET := $(subst image-,,$@))',
        '\t$(eval FILE := $(if $(filter sidecar,$(TARGET)),../other/values.yaml,values.yaml))',
        '\t@echo $(TARGET) $(FILE)',
        '',
      ].join('\n'),
    });
    expect(expandRecipe(r, 'image')?.prerequisites).toEqual(['image-controller', 'image-sidecar']);
    expect(commands(r, 'image-controller')).toEqual(['echo controller values.yaml']);
    expect(commands(r, 'image-sidecar')).toEqual(['echo sidecar ../other/values.yaml']);
    expect(r.db.vars.get('TARGET')).toBeUndefined();
    expect(r.db.defaultGoal).toBe('image');
  });

  it('pattern rules bind $* and static pattern rules their stem', () => {
    const r = load({
      Makefile: [
        'assets-%:',
        '\techo $(firstword $(subst -, ,$*)) $@',
        'a.o b.o: %.o: %.c',
        '\tcc $< -o $@',
        '',
      ].join('\n'),
    });
    expect(commands(r, 'assets-linux-amd64')).toEqual(['echo linux assets-linux-amd64']);
    expect(commands(r, 'b.o')).toEqual(['cc b.c -o b.o']);
  });

  it('MAKEFILE_LIST names each file from the directory make runs in (istio: $(abspath $(lastword $(MAKEFILE_LIST))))', () => {
    const r = load(
      {
        'pkg/fake/Makefile': 'MK := $(abspath $(lastword $(MAKEFILE_LIST)))\ninclude ../common.mk\nall:\n\tdocker build $(dir $(MK)) -t x\n',
        'pkg/common.mk': 'FIRST := $(lastword $(MAKEFILE_LIST))\n',
      },
      'pkg/fake/Makefile',
    );
    expect(value(r, 'MAKEFILE_LIST')).toBe('Makefile ../common.mk');
    expect(value(r, 'FIRST')).toBe('../common.mk');
    expect(commands(r, 'all')).toEqual([`docker build ${r.db.dir}/ -t x`]);
  });

  it('a pattern rule with an empty recipe (`;`) makes its targets; one with none cancels (kube-state-metrics)', () => {
    const r = load({ Makefile: 'sub-push-%: container-% do-push-% ;\ncancelled-%: other-%\ncontainer-%:\n\tdocker build -t x-$* .\n' });
    expect(expandRecipe(r, 'sub-push-amd64')?.prerequisites).toEqual(['container-amd64', 'do-push-amd64']);
    expect(commands(r, 'sub-push-amd64')).toEqual([]);
    expect(expandRecipe(r, 'cancelled-amd64')).toBeUndefined();
  });

  it('target-specific variables apply to that target only', () => {
    const r = load({ Makefile: 'X = global\none: X = local\none:\n\techo $(X)\ntwo:\n\techo $(X)\n' });
    expect(commands(r, 'one')).toEqual(['echo local']);
    expect(commands(r, 'two')).toEqual(['echo global']);
  });

  it('.DEFAULT_GOAL overrides the first target; $(eval) at top level defines rules', () => {
    const r = load({ Makefile: 'first:\n\ttrue\n.DEFAULT_GOAL=second\n$(foreach t,a b,$(eval gen-$(t): ; echo $(t)))\nsecond:\n\ttrue\n' });
    expect(r.db.defaultGoal).toBe('second');
    expect(commands(r, 'gen-b')).toEqual(['echo b']);
  });

  it('a later recipe for the same target replaces the earlier one and says so', () => {
    const r = load({ Makefile: 'x:\n\techo one\nx: dep\n\techo two\ndep:\n' });
    expect(commands(r, 'x')).toEqual(['echo two']);
    expect(expandRecipe(r, 'x')?.prerequisites).toEqual(['dep']);
    expect(r.db.problems.map((p) => p.code)).toEqual(['make-recipe-overridden']);
  });
});

describe('malformed Makefiles', () => {
  const cases: { name: string; text: string; code: string; line: number }[] = [
    { name: 'missing separator', text: 'A = 1\nthis is not make\nall:\n\ttrue\n', code: 'make-missing-separator', line: 2 },
    { name: 'unterminated define', text: 'define X\nbody\nall:\n', code: 'make-unterminated-define', line: 1 },
    { name: 'unterminated conditional', text: 'ifeq (a,a)\nA = 1\n', code: 'make-unterminated-conditional', line: 1 },
    { name: 'stray endif', text: 'A = 1\nendif\n', code: 'make-syntax', line: 2 },
    { name: 'stray endef', text: 'endef\n', code: 'make-syntax', line: 1 },
    { name: 'recipe before first target', text: '\techo hi\n', code: 'make-recipe-before-target', line: 1 },
    { name: 'unreadable condition', text: 'ifeq a b\nendif\n', code: 'make-syntax', line: 1 },
  ];
  it.each(cases)('$name → $code at line $line', ({ text, code, line }) => {
    const r = load({ Makefile: text });
    expect(r.db.problems).toContainEqual(expect.objectContaining({ file: 'Makefile', line, code }));
  });

  it('keeps reading after a problem', () => {
    const r = load({ Makefile: 'oops\nB := after\n' });
    expect(value(r, 'B')).toBe('after');
  });

  it('leaves $(shell) lines alone and marks their values', () => {
    const r = load({ Makefile: '$(shell git fetch)\nV = $(shell git describe)\n' });
    expect(r.db.problems).toEqual([]);
    expect(hasMarker(expand('$(V)', { vars: r.db.vars }))).toBe(true);
  });
});
