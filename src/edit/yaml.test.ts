import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { editYaml } from './yaml.js';

/** Edit the first occurrence of `from` with `to` (a span edit as repin makes it). */
function edit(text: string, from: string, to: string): string {
  const start = text.indexOf(from);
  if (start === -1) throw new Error(`no ${from}`);
  return editYaml(text, [{ start, end: start + from.length, text: to }], 'v.yaml').text;
}

describe('editYaml', () => {
  const cases: { name: string; input: string; from: string; to: string; want: string }[] = [
    { name: 'double-quoted keeps quotes and comment', input: 'a:\n  image: "r.io/x:v1"  # keep\n', from: 'v1', to: 'v2', want: 'a:\n  image: "r.io/x:v2"  # keep\n' },
    { name: 'single-quoted keeps quotes', input: "image: 'r.io/x:v1'\n", from: 'v1', to: 'v2', want: "image: 'r.io/x:v2'\n" },
    { name: 'plain stays plain', input: 'tag: v1.9 # c\n', from: 'v1.9', to: 'v1.10', want: 'tag: v1.10 # c\n' },
    { name: 'plain that would become a number is quoted', input: 'tag: v1.9\n', from: 'v1.9', to: '1.10', want: 'tag: "1.10"\n' },
    { name: 'plain that would become a bool is quoted', input: 'tag: x\n', from: 'x', to: 'true', want: 'tag: "true"\n' },
    { name: 'CRLF line endings are untouched', input: 'a:\r\n  tag: v1\r\n  b: 2\r\n', from: 'v1', to: 'v2', want: 'a:\r\n  tag: v2\r\n  b: 2\r\n' },
    { name: 'flow sequence item inside a string', input: 'args: ["--x-image=r.io/x:v1", "--y"]\n', from: 'v1', to: 'v2', want: 'args: ["--x-image=r.io/x:v2", "--y"]\n' },
    { name: 'block scalar through the CST', input: 'image: >-\n  r.io/x:v1\nnext: 1\n', from: 'v1', to: 'v2', want: 'image: >-\n  r.io/x:v2\nnext: 1\n' },
    { name: 'escaped double-quoted through the CST', input: 'image: "r.io/x:v1\\u0020"\n', from: 'v1', to: 'v2', want: 'image: "r.io/x:v2 "\n' },
    { name: 'anchored scalar (the alias follows)', input: 'a: &img "r.io/x:v1"\nb: *img\n', from: 'v1', to: 'v2', want: 'a: &img "r.io/x:v2"\nb: *img\n' },
    { name: 'tagged plain scalar', input: 'a: !!str r.io/x:v1\n', from: 'v1', to: 'v2', want: 'a: !!str r.io/x:v2\n' },
    { name: 'plain in a flow map', input: 'a: {image: r.io/x:v1, b: 1}\n', from: 'v1', to: 'v2', want: 'a: {image: r.io/x:v2, b: 1}\n' },
    { name: 'second document of a multi-document file', input: 'a: 1\n---\nimage: r.io/x:v1\n', from: 'v1', to: 'v2', want: 'a: 1\n---\nimage: r.io/x:v2\n' },
  ];
  it.each(cases)('$name', ({ input, from, to, want }) => {
    const out = edit(input, from, to);
    expect(out).toBe(want);
    // Read back: the edited value parses as the intended string.
    const docs = parseAllDocuments(out);
    expect(docs.every((d) => d.errors.length === 0)).toBe(true);
  });

  it('edits two spans inside one scalar (tag and digest in `tag: v1@sha256:…`)', () => {
    const d1 = `sha256:${'1'.repeat(64)}`;
    const d2 = `sha256:${'2'.repeat(64)}`;
    const text = `tag: v1@${d1}\n`;
    const out = editYaml(text, [
      { start: 5, end: 7, text: 'v2' },
      { start: 8, end: 8 + d1.length, text: d2 },
    ]).text;
    expect(out).toBe(`tag: v2@${d2}\n`);
  });

  it('refuses a span outside any scalar, and a file that does not parse', () => {
    expect(() => editYaml('a: b # v1\n', [{ start: 7, end: 9, text: 'v2' }], 'f.yaml')).toThrow(/not inside a YAML scalar/);
    expect(() => editYaml('a: [\n', [{ start: 0, end: 1, text: 'b' }], 'f.yaml')).toThrow(/does not parse/);
  });

  it('refuses overlapping edits', () => {
    expect(() => editYaml('a: abc\n', [{ start: 3, end: 5, text: 'x' }, { start: 4, end: 6, text: 'y' }])).toThrow(/overlap/);
  });
});
