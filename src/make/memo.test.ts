/**
 * What is worked out once per text and shared (expand.ts's templates, reader.ts's line infos) must hold
 * nothing of the context: the same text read or expanded under another context gives that context's answer.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { treesRemovedAfterEach } from '../../test/support/tree.js';
import { expand, expandRecipe, loadMakefile, lookupVariable, VariableStore, type ExpandContext } from './index.js';

const makeTree = treesRemovedAfterEach();
const tree = (files: Record<string, string>): string => makeTree(files).dir;

function context(values: Record<string, string>, recursive: Record<string, string> = {}): ExpandContext & { notes: string[] } {
  const vars = new VariableStore();
  for (const [k, v] of Object.entries(values)) vars.setSimple(k, v, 'file');
  for (const [k, v] of Object.entries(recursive)) vars.set(k, { flavor: 'recursive', value: v, origin: 'file' });
  const notes: string[] = [];
  return { vars, notes, note: (code) => void notes.push(code) };
}

describe('one text expanded in different contexts', () => {
  // [text, context A values, A's answer, context B values, B's answer]
  const table: [string, Record<string, string>, string, Record<string, string>, string][] = [
    ['$(A)-$B', { A: '1', B: 'x' }, '1-x', { A: '2', B: 'y' }, '2-y'],
    ['$(A:.c=.o)', { A: 'a.c b.c' }, 'a.o b.o', { A: 'z.c' }, 'z.o'],
    ['$($(N)_TAG)', { N: 'X', X_TAG: 'x1', Y_TAG: 'y1' }, 'x1', { N: 'Y', X_TAG: 'x1', Y_TAG: 'y1' }, 'y1'],
    ['$(subst a,b,$(T))', { T: 'aaa' }, 'bbb', { T: 'cac' }, 'cbc'],
    ['$(if $(F),yes,no)', { F: '1' }, 'yes', { F: '' }, 'no'],
    ['$$(A) $(A)', { A: '1' }, '$(A) 1', { A: '2' }, '$(A) 2'],
    ['${A}${B}', { A: 'p', B: 'q' }, 'pq', { A: '', B: 'r' }, 'r'],
  ];
  it.each(table)('%s', (text, a, aOut, b, bOut) => {
    for (let round = 0; round < 2; round++) {
      expect(expand(text, context(a))).toBe(aOut);
      expect(expand(text, context(b))).toBe(bOut);
    }
  });

  it('$(call) of the same text with another definition of the called variable', () => {
    const text = '$(call tag,img)';
    expect(expand(text, context({}, { tag: 'a/$(1)' }))).toBe('a/img');
    expect(expand(text, context({}, { tag: 'b/$(1):v' }))).toBe('b/img:v');
  });

  it('an unterminated reference is noted at every expansion, not only the first', () => {
    for (let round = 0; round < 2; round++) {
      const ctx = context({ A: '1' });
      expect(expand('$(A) $(B', ctx)).toMatch(/^1 ⟨unterminated/);
      expect(ctx.notes).toEqual(['make-unterminated-reference']);
    }
  });
});

describe('one Makefile text read under different variables', () => {
  const makefile = [
    'ifeq ($(MODE),fast)',
    'FLAGS := -O3',
    'build: fast.o',
    '\tcc $(FLAGS) -o $@ $^',
    'else',
    'FLAGS := -O0',
    'build: slow.o',
    '\tcc $(FLAGS) -g -o $@ $^',
    'endif',
    'export TAG ?= $(MODE)-tag',
    '',
  ].join('\n');

  it('each reading takes its own branch, rules and values (the lines are classified once)', () => {
    const root = tree({ Makefile: makefile });
    for (let round = 0; round < 2; round++) {
      for (const [mode, flags, prereq, cmd] of [
        ['fast', '-O3', 'fast.o', 'cc -O3 -o build fast.o'],
        ['slow', '-O0', 'slow.o', 'cc -O0 -g -o build slow.o'],
      ] as const) {
        const r = loadMakefile(join(root, 'Makefile'), { root, variables: { MODE: mode } });
        expect(lookupVariable('FLAGS', { vars: r.db.vars })).toBe(flags);
        expect(r.db.rules.get('build')?.prerequisites).toEqual([prereq]);
        expect(expandRecipe(r, 'build')?.commands.map((c) => c.text)).toEqual([cmd]);
        expect(lookupVariable('TAG', { vars: r.db.vars })).toBe(`${mode}-tag`);
        expect(r.db.vars.get('TAG')?.exported).toBe(true);
      }
    }
  });

  it('the same line text in two files keeps each file’s position', () => {
    const root = tree({ Makefile: 'include a.mk\ninclude b.mk\n', 'a.mk': 'x: ; echo same\n', 'b.mk': 'y: ; echo same\n' });
    const r = loadMakefile(join(root, 'Makefile'), { root });
    expect([r.db.rules.get('x')?.file, r.db.rules.get('y')?.file]).toEqual(['a.mk', 'b.mk']);
  });
});
