import { describe, expect, it } from 'vitest';
import { directiveCovers, parseDirectives } from './suppressions.js';

describe('parseDirectives', () => {
  const cases: { name: string; text: string; want: { line: number; rules: string[]; reason: string; covers: [number, number][] }[] }[] = [
    {
      name: 'trailing comment covers its own line',
      text: 'a:\n  image: x:latest # pinwatch-ignore floating-tag frozen on purpose\n',
      want: [{ line: 2, rules: ['floating-tag'], reason: 'frozen on purpose', covers: [[2, 2]] }],
    },
    {
      name: 'comment line covers the next line',
      text: 'a:\n  # pinwatch-ignore no-producer stamped by hand in release.sh\n  image: x\n  other: y\n',
      want: [{ line: 2, rules: ['no-producer'], reason: 'stamped by hand in release.sh', covers: [[3, 3]] }],
    },
    {
      name: 'other comments between directive and line are skipped',
      text: '# pinwatch-ignore floating-tag reason here\n# DO NOT hand-edit\nimage: x\n',
      want: [{ line: 1, rules: ['floating-tag'], reason: 'reason here', covers: [[3, 3]] }],
    },
    {
      name: 'above a bare key it covers the block under it',
      text: 'x:\n  # pinwatch-ignore first-party-missing-digest,floating-tag -- vendored\n  image:\n    repository: r\n\n    tag: latest\n  next: 1\n',
      want: [{ line: 2, rules: ['first-party-missing-digest', 'floating-tag'], reason: 'vendored', covers: [[3, 6]] }],
    },
    {
      name: 'a bare key block includes sequence items at its indent',
      text: '# pinwatch-ignore no-producer why\nimages:\n- name: a\n  newTag: b\nother: 1\n',
      want: [{ line: 1, rules: ['no-producer'], reason: 'why', covers: [[2, 4]] }],
    },
    {
      name: 'a blank line ends the reach',
      text: '# pinwatch-ignore no-producer why\n\nimage: x\n',
      want: [{ line: 1, rules: ['no-producer'], reason: 'why', covers: [] }],
    },
    {
      name: 'no reason',
      text: 'image: x # pinwatch-ignore floating-tag\n',
      want: [{ line: 1, rules: ['floating-tag'], reason: '', covers: [[1, 1]] }],
    },
    {
      name: 'a # inside a value is not a comment',
      text: 'image: "x#pinwatch-ignore floating-tag r"\n',
      want: [],
    },
    {
      name: 'pinwatch-ignored (another word) is not a directive',
      text: '# pinwatch-ignored floating-tag r\nimage: x\n',
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(parseDirectives('f.yaml', c.text).map(({ line, rules, reason, covers }) => ({ line, rules, reason, covers }))).toEqual(c.want);
    });
  }

  it('directiveCovers checks rule and line', () => {
    const [d] = parseDirectives('f.yaml', '# pinwatch-ignore floating-tag r\nimage: x\n');
    expect(directiveCovers(d!, 'floating-tag', [2])).toBe(true);
    expect(directiveCovers(d!, 'floating-tag', [1, 3])).toBe(false);
    expect(directiveCovers(d!, 'no-producer', [2])).toBe(false);
    expect(directiveCovers(d!, 'floating-tag', [undefined, 2])).toBe(true);
  });
});
