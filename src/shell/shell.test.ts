import { describe, expect, it } from 'vitest';
import { commandSubstitutions, parseShell, resolveWord, wordText } from './shell.js';

const simple = (line: string) =>
  parseShell(line).map((c) => ({
    env: Object.fromEntries(c.assignments.map((a) => [a.name, wordText(a.value)])),
    args: c.args.map(wordText),
    redirects: c.redirects.map((r) => `${r.op}${wordText(r.target)}`),
  }));

describe('parseShell', () => {
  const cases: { line: string; want: ReturnType<typeof simple> }[] = [
    {
      line: `IMAGE="reg/x:dev@$(yq e '."containerimage.digest"' images/x.json -r)" yq -i '.a.b = strenv(IMAGE)' values.yaml`,
      want: [{ env: { IMAGE: `reg/x:dev@$(yq e '."containerimage.digest"' images/x.json -r)` }, args: ['yq', '-i', '.a.b = strenv(IMAGE)', 'values.yaml'], redirects: [] }],
    },
    {
      line: 'yq .a.b ../x/values.yaml > ../../y/images/z.tag',
      want: [{ env: {}, args: ['yq', '.a.b', '../x/values.yaml'], redirects: ['>../../y/images/z.tag'] }],
    },
    {
      line: 'a && b || c; d | e 2>/dev/null >&2',
      want: [
        { env: {}, args: ['a'], redirects: [] },
        { env: {}, args: ['b'], redirects: [] },
        { env: {}, args: ['c'], redirects: [] },
        { env: {}, args: ['d'], redirects: [] },
        { env: {}, args: ['e'], redirects: ['2>/dev/null'] },
      ],
    },
    {
      line: 'digest=$$x; IMG="r:$${t}@$$digest"; echo "$IMG" >> f.tag',
      want: [
        { env: { digest: '$$x' }, args: [], redirects: [] },
        { env: { IMG: 'r:$${t}@$$digest' }, args: [], redirects: [] },
        { env: {}, args: ['echo', '$IMG'], redirects: ['>>f.tag'] },
      ],
    },
    {
      line: `if [ "$(PUSH)" = "1" ]; then helm push "$$PKG" oci://x; fi`,
      want: [
        { env: {}, args: ['[', '$(PUSH)', '=', '1', ']'], redirects: [] },
        { env: {}, args: ['helm', 'push', '$$PKG', 'oci://x'], redirects: [] },
      ],
    },
    { line: '# a comment with > redirect', want: [] },
    { line: `echo 'it''s' a\\ b "q\\"uote"`, want: [{ env: {}, args: ['echo', 'its', 'a b', 'q"uote'], redirects: [] }] },
  ];
  it.each(cases)('$line', ({ line, want }) => {
    expect(simple(line)).toEqual(want);
  });

  it('substitutes shell variables outside single quotes only', () => {
    const [cmd] = parseShell(`echo "$IMG" '$IMG' \${IMG}x`);
    const vars = new Map([['IMG', 'reg/x:1']]);
    expect(cmd!.args.map((w) => resolveWord(w, vars))).toEqual(['echo', 'reg/x:1', '$IMG', 'reg/x:1x']);
  });
});

describe('command substitutions', () => {
  const cases: { line: string; args: string[]; inner: string[] }[] = [
    { line: 'go build -o /out/$(basename $(pwd)) ./cmd', args: ['go', 'build', '-o', '/out/$(basename $(pwd))', './cmd'], inner: ['basename $(pwd)'] },
    { line: 'echo "v=$(git describe && echo x)" `date`', args: ['echo', 'v=$(git describe && echo x)', '`date`'], inner: ['git describe && echo x', 'date'] },
    { line: "echo '$(not run)' $((1 + 2))", args: ['echo', '$(not run)', '$((1 + 2))'], inner: [] },
  ];
  it.each(cases)('$line', ({ line, args, inner }) => {
    const commands = parseShell(line);
    expect(commands).toHaveLength(1);
    expect(commands[0]!.args.map(wordText)).toEqual(args);
    expect(commands[0]!.args.flatMap(commandSubstitutions)).toEqual(inner);
  });
});
