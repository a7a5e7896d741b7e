import { describe, expect, it } from 'vitest';
import { expand, type ExpandContext } from './expand.js';
import { hasMarker } from './markers.js';
import { VariableStore } from './variables.js';

function context(vars: Record<string, string>, recursive: Record<string, string> = {}): ExpandContext {
  const store = new VariableStore();
  for (const [k, v] of Object.entries(vars)) store.setSimple(k, v, 'file');
  for (const [k, v] of Object.entries(recursive)) store.set(k, { flavor: 'recursive', value: v, origin: 'file' });
  return { vars: store };
}

const VARS = { A: 'a', B: 'b c', EMPTY: '', TARGET: 'image-sidecar', REGISTRY: 'ghcr.io/acme', LIST: 'x.c y.c z.h', '@': 'image-controller', '<': 'src/main.c', '*': 'linux-amd64', N: 'A' };
const RECURSIVE = {
  TAGS: '--tag $(REGISTRY)/$(1):dev',
  SIDE: '$(if $(filter sidecar,$(1)),yes,no)',
  LAZY: '$(A)-$(B)',
  SELF: 'x $(SELF)',
  comma: ',',
};

describe('expand', () => {
  const cases: [string, string][] = [
    ['plain text', 'plain text'],
    ['$(A)', 'a'],
    ['${A}', 'a'],
    ['$A', 'a'],
    ['$$A', '$A'],
    ['$$(yq .x f)', '$(yq .x f)'],
    ['$(UNDEFINED)x', 'x'],
    ['$(LAZY)', 'a-b c'],
    ['$($(N))', 'a'],
    ['$@', 'image-controller'],
    ['$<', 'src/main.c'],
    ['$*', 'linux-amd64'],
    ['$(@D)/$(@F)', './image-controller'],
    ['$(LIST:.c=.o)', 'x.o y.o z.h'],
    ['$(LIST:%.c=obj/%.o)', 'obj/x.o obj/y.o z.h'],
    ['$(subst image-,,$(TARGET))', 'sidecar'],
    ['$(subst image-,,$@)', 'controller'],
    ['$(patsubst v%,%,v1.2.3)', '1.2.3'],
    ['$(patsubst %.c,%.o,$(LIST))', 'x.o y.o z.h'],
    ['$(filter %.c,$(LIST))', 'x.c y.c'],
    ['$(filter sidecar,sidecar)', 'sidecar'],
    ['$(filter-out %.c,$(LIST))', 'z.h'],
    ['$(if $(filter sidecar,$(subst image-,,$(TARGET))),../seaweedfs/values.yaml,values.yaml)', '../seaweedfs/values.yaml'],
    ['$(if $(EMPTY),yes,no)', 'no'],
    ['$(if $(EMPTY),yes)', ''],
    ['$(or $(EMPTY),,second,third)', 'second'],
    ['$(and a,b,c)', 'c'],
    ['$(and a,,c)', ''],
    ['$(strip   a   b  )', 'a b'],
    ['$(word 2,$(LIST))', 'y.c'],
    ['$(word 9,$(LIST))', ''],
    ['$(words $(LIST))', '3'],
    ['$(wordlist 2,3,$(LIST))', 'y.c z.h'],
    ['$(firstword $(subst -, ,$*))', 'linux'],
    ['$(lastword $(subst -, ,$*))', 'amd64'],
    ['$(notdir src/a.c b.c)', 'a.c b.c'],
    ['$(dir src/a.c b.c)', 'src/ ./'],
    ['$(basename src/a.c b.tar.gz)', 'src/a b.tar'],
    ['$(suffix src/a.c b)', '.c'],
    ['$(addprefix images/,a b)', 'images/a images/b'],
    ['$(addsuffix .tag,a b)', 'a.tag b.tag'],
    ['$(join a b,1 2 3)', 'a1 b2 3'],
    ['$(findstring b,abc)', 'b'],
    ['$(findstring z,abc)', ''],
    ['$(sort c a b a)', 'a b c'],
    ['$(foreach x,a b,<$(x)>)', '<a> <b>'],
    ['$(call TAGS,billing)', '--tag ghcr.io/acme/billing:dev'],
    ['$(call SIDE,sidecar) $(call SIDE,controller)', 'yes no'],
    ['$(subst $(comma),;,a,b)', 'a;b'],
    ['$(value LAZY)', '$(A)-$(B)'],
    ['$(origin A) $(origin NOPE)', 'file undefined'],
    ['$(flavor LAZY) $(flavor A)', 'recursive simple'],
    ['$(info hello)x', 'x'],
  ];
  it.each(cases)('%s → %s', (input, expected) => {
    expect(expand(input, context(VARS, RECURSIVE))).toBe(expected);
  });

  const markers: string[] = ['$(shell git describe --tags)', '$(wildcard hack/*.bats)', 'v$(patsubst v%,%,$(shell git describe))', '$(eval X := 1)'];
  it.each(markers)('%s leaves a marker instead of guessing', (input) => {
    const out = expand(input, context(VARS, RECURSIVE));
    expect(hasMarker(out)).toBe(true);
  });

  it('a marker stays one word and carries no shell syntax', () => {
    const out = expand(`$(shell awk '{print $$2}' "f"; echo $(A))`, context(VARS));
    expect(out.split(/[ \t]/)).toHaveLength(1);
    expect(out).not.toMatch(/['"$;<>(){}]/);
    expect(expand('$(words x $(shell a b c) y)', context(VARS))).toBe('3');
  });

  it('reports a variable that references itself instead of looping', () => {
    const notes: string[] = [];
    const ctx = { ...context(VARS, RECURSIVE), note: (code: string) => notes.push(code) };
    expect(hasMarker(expand('$(SELF)', ctx))).toBe(true);
    expect(notes).toContain('make-recursive-variable');
  });

  it('reports an unterminated reference instead of throwing', () => {
    const notes: string[] = [];
    const out = expand('a $(A', { ...context(VARS), note: (code) => notes.push(code) });
    expect(out.startsWith('a ')).toBe(true);
    expect(notes).toEqual(['make-unterminated-reference']);
  });

  it('$(eval) hands the expanded text to the reader', () => {
    const seen: string[] = [];
    const ctx: ExpandContext = { ...context(VARS), evalText: (t) => seen.push(t) };
    expect(expand('$(eval X := $(subst image-,,$@))', ctx)).toBe('');
    expect(seen).toEqual(['X := controller']);
  });
});
