/**
 * Property tests for every git output parser in src/git/: arbitrary subjects,
 * paths and file contents (any byte but NUL where git forbids it, weighted
 * towards separators, quotes and fake headers) are formatted as git prints
 * them, and the parser must return exactly the fields that went in.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parsePatchLog } from '../../src/git/digest-history.js';
import { newNonce, nulTerminated, parseCommitLog, parseNameOnlyLog, unquoteCPath } from '../../src/git/log-parse.js';
import { parseTagRefs } from '../../src/git/tags.js';
import { parseBatchBlobs, parsePrefixAndCommit } from '../../src/git/objects.js';
import { parsePatchIds } from '../../src/git/patch-id.js';
import { parseRawLog, parseRawRecord } from '../../src/git/history.js';

/** No lone surrogates: git output is UTF-8 decoded, so the parsers never see one. */
const wellFormed = (s: string) => !/\p{Surrogate}/u.test(s);
const DIGEST = (c: string) => `sha256:${c.repeat(64)}`;
/** Pieces that broke (or could break) a separator-based parser. */
const HOSTILE = [
  '\x1e', '\x1f', '\n', '\r', '\t', '"', '\\', '\x7f', '\x01', '\x1b', 'é', '☃', '𝄞', ' ', 'a/', 'b/', '/dev/null',
  'commit ', 'diff --git a/x b/x', '--- a/x', '+++ b/x', '@@ -1 +1 @@', '@@ -0,0 +1,9 @@', '\\ No newline at end of file',
  '@pinwatch:', DIGEST('a'), DIGEST('b'), 'sha256:', '0'.repeat(40),
];
const hostileText = (extra: string[] = []) =>
  fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom(...HOSTILE, ...extra) }), fc.string({ unit: fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: 'binary', maxLength: 2 })) })).filter((s) => wellFormed(s));
const noNul = (extra: string[] = []) => hostileText(extra).filter((s) => !s.includes('\0'));
const noNulNl = () => noNul().filter((s) => !s.includes('\n'));
const sha = fc.stringMatching(/^[0-9a-f]{40}$/);
const date = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().replace(/\.\d+Z$/, '+00:00'));
const commit = fc.record({ sha, parentShas: fc.array(sha, { maxLength: 3 }), date, subject: noNul() });

/** git's quote_c_style over the path's UTF-8 bytes (quotePath=true quotes bytes ≥ 0x80 as octal too). */
function quoteC(bytes: Uint8Array, quoteHigh = true): string {
  const named: Record<number, string> = { 7: 'a', 8: 'b', 9: 't', 10: 'n', 11: 'v', 12: 'f', 13: 'r', 34: '"', 92: '\\' };
  const needs = [...bytes].some((b) => b < 0x20 || b === 34 || b === 92 || b === 0x7f || (quoteHigh && b >= 0x80));
  if (!needs) return Buffer.from(bytes).toString('utf8');
  const out: (string | number)[] = [];
  for (const b of bytes) {
    if (named[b]) out.push(`\\${named[b]}`);
    else if (b < 0x20 || b === 0x7f || (quoteHigh && b >= 0x80)) out.push(`\\${b.toString(8).padStart(3, '0')}`);
    else out.push(b);
  }
  // Raw bytes (ASCII, or high bytes when quotePath=false) stay bytes; escapes are ASCII.
  const buf = Buffer.concat(out.map((o) => (typeof o === 'number' ? Buffer.from([o]) : Buffer.from(o, 'latin1'))));
  return `"${buf.toString('utf8')}"`;
}

describe('parseCommitLog (git log -z --format=COMMIT_FORMAT)', () => {
  it('returns every commit and field exactly, whatever the subjects hold', () => {
    fc.assert(
      fc.property(fc.array(commit, { maxLength: 8 }), (commits) => {
        const out = commits.map((c) => `${c.sha}\0${c.parentShas.join(' ')}\0${c.date}\0${c.subject}\0\0`).join('');
        expect(parseCommitLog(out)).toEqual(commits);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses output of another shape instead of guessing', () => {
    expect(() => parseCommitLog('abc\0\0x\0y\0\0')).toThrow(/unexpected git output/);
    expect(() => parseCommitLog(`${'a'.repeat(40)}\0zz\0${'b'.repeat(40)}\0s\0\0`)).toThrow(/parent sha/);
    // git prints the placeholder itself for an author date it cannot parse: kept, not fatal
    expect(parseCommitLog(`${'a'.repeat(40)}\0\0%aI\0s\0\0`)[0]?.date).toBe('%aI');
    expect(() => parseCommitLog(`${'a'.repeat(40)}\0\0`)).toThrow(/commit header/);
  });
});

describe('parseNameOnlyLog (git log -z --name-only --format=<nonce>%H)', () => {
  it('returns each commit and its paths exactly', () => {
    const path = noNul().filter((p) => p !== '');
    fc.assert(
      fc.property(fc.array(fc.record({ sha, paths: fc.array(path, { maxLength: 5 }) }), { maxLength: 6 }), (commits) => {
        const nonce = newNonce();
        const out = commits.map((c) => `${nonce}${c.sha}\0${c.paths.length ? `\n${c.paths.map((p) => `${p}\0`).join('')}` : ''}`).join('');
        expect(parseNameOnlyLog(out, nonce)).toEqual(commits);
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseRawLog (git log --raw -z --format=<nonce>RAW_FORMAT)', () => {
  const entry = fc.record({
    path: noNul().filter((p) => p !== ''),
    oldBlob: sha,
    newBlob: sha,
    status: fc.constantFrom('A', 'D', 'M', 'T'),
  });
  const rawCommit = fc.record({ sha, parentShas: fc.array(sha, { maxLength: 3 }), date, commitTime: fc.integer({ min: 0, max: 2 ** 40 }), subject: noNul(), tree: sha, entries: fc.array(entry, { maxLength: 4 }) });
  const print = (nonce: string, c: { sha: string; tree: string; parentShas: string[]; date: string; commitTime: number; subject: string; entries: { path: string; oldBlob: string; newBlob: string; status: string }[] }) =>
    `${nonce}${c.sha}\x00${c.tree}\x00${c.parentShas.join(' ')}\x00${c.date}\x00${c.commitTime}\x00${c.subject}\x00\x00${c.entries.length ? `\n${c.entries.map((e) => `:100644 100644 ${e.oldBlob} ${e.newBlob} ${e.status}\x00${e.path}\x00`).join('')}` : ''}`;

  it('returns every commit, field and raw entry exactly, whatever subjects and paths hold', () => {
    fc.assert(
      fc.property(fc.array(rawCommit, { maxLength: 6 }), (commits) => {
        const nonce = newNonce();
        expect(parseRawLog(commits.map((c) => print(nonce, c)).join(''), nonce)).toEqual(commits);
      }),
      { numRuns: 300 },
    );
  });

  it('reads SHA-256 ids, and a mix of entries, each at its offset', () => {
    const nonce = newNonce();
    const c = { sha: 'c'.repeat(64), tree: '9'.repeat(64), parentShas: ['1'.repeat(64)], date: 'd', commitTime: 1, subject: 's', entries: [{ path: 'a', oldBlob: '0'.repeat(64), newBlob: 'e'.repeat(64), status: 'A' }, { path: 'b/c d', oldBlob: 'f'.repeat(64), newBlob: '0'.repeat(64), status: 'D' }] };
    expect(parseRawLog(print(nonce, c), nonce)).toEqual([c]);
  });

  it('a subject or path holding a forged entry or record stays a subject or path', () => {
    const nonce = newNonce();
    const c = { sha: 'c'.repeat(40), tree: '9'.repeat(40), parentShas: [], date: '2026-01-01T00:00:00Z', commitTime: 1, subject: 'Revert "x"', entries: [{ path: `p\n:100644 100644 ${'a'.repeat(40)}`, oldBlob: 'd'.repeat(40), newBlob: 'e'.repeat(40), status: 'M' }] };
    expect(parseRawLog(print(nonce, c), nonce)).toEqual([c]);
    // another run's record marker in a subject is text: only this run's nonce starts a record
    const other = { ...c, subject: `${newNonce()}${'f'.repeat(40)}` };
    expect(parseRawLog(print(nonce, other), nonce)).toEqual([other]);
  });

  it.each([
    ['a bad sha', `${'z'.repeat(40)}\x00${'b'.repeat(40)}\x00\x00d\x001\x00s\x00\x00`, /commit sha/],
    ['a bad tree id', `${'a'.repeat(40)}\x00tree\x00\x00d\x001\x00s\x00\x00`, /tree id/],
    ['a bad committer time', `${'a'.repeat(40)}\x00${'b'.repeat(40)}\x00\x00d\x00soon\x00s\x00\x00`, /committer time/],
    ['a cut header', `${'a'.repeat(40)}\x00${'b'.repeat(40)}\x00\x00d\x00`, /commit header/],
    ['entries without the newline', `${'a'.repeat(40)}\x00${'b'.repeat(40)}\x00\x00d\x001\x00s\x00\x00:100644`, /raw entries/],
    ['an entry of another shape', `${'a'.repeat(40)}\x00${'b'.repeat(40)}\x00\x00d\x001\x00s\x00\x00\n:100644 ${'b'.repeat(40)} M\x00p\x00`, /raw entry/],
    ['an entry without its path', `${'a'.repeat(40)}\x00${'b'.repeat(40)}\x00\x00d\x001\x00s\x00\x00\n:100644 100644 ${'b'.repeat(40)} ${'c'.repeat(40)} M\x00`, /raw entry path/],
    ['an entry with more after its status', `${'a'.repeat(40)}\x00${'b'.repeat(40)}\x00\x00d\x001\x00s\x00\x00\n:100644 100644 ${'b'.repeat(40)} ${'c'.repeat(40)} Mx\x00p\x00`, /raw entry/],
    ['an entry cut before its NUL', `${'a'.repeat(40)}\x00${'b'.repeat(40)}\x00\x00d\x001\x00s\x00\x00\n:100644 100644 ${'b'.repeat(40)} ${'c'.repeat(40)} M`, /raw entry/],
    ['a second entry of another shape', `${'a'.repeat(40)}\x00${'b'.repeat(40)}\x00\x00d\x001\x00s\x00\x00\n:100644 100644 ${'b'.repeat(40)} ${'c'.repeat(40)} M\x00p\x00:100644 ${'b'.repeat(40)} M\x00q\x00`, /raw entry/],
  ])('refuses %s', (_, record, error) => expect(() => parseRawRecord(record)).toThrow(error));
});

describe('nulTerminated (-z path lists)', () => {
  it('returns the paths exactly', () => {
    fc.assert(
      fc.property(fc.array(noNul().filter((p) => p !== ''), { maxLength: 6 }), (paths) => {
        expect(nulTerminated(paths.map((p) => `${p}\0`).join(''))).toEqual(paths);
      }),
    );
  });
});

describe('unquoteCPath (core.quotePath)', () => {
  it('decodes any path git quotes, with quotePath on or off', () => {
    fc.assert(
      fc.property(noNul().filter((p) => p !== ''), fc.boolean(), (p, high) => {
        expect(unquoteCPath(quoteC(Buffer.from(p, 'utf8'), high))).toBe(p);
      }),
      { numRuns: 500 },
    );
  });

  it('decodes any byte string (invalid UTF-8 reads as git -z output reads)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 12 }).filter((b) => !b.includes(0)), (bytes) => {
        expect(unquoteCPath(quoteC(bytes))).toBe(Buffer.from(bytes).toString('utf8'));
      }),
    );
  });

  it.each([
    ['"a\\tb"', 'a\tb'],
    ['"\\303\\251"', 'é'],
    ['"q\\"\\\\"', 'q"\\'],
    ['plain name', 'plain name'],
  ])('%s → %j', (quoted, path) => expect(unquoteCPath(quoted)).toBe(path));

  it.each(['"open', '"bad\\q"', '"a"b"', '"\\'])('refuses %j', (q) => expect(() => unquoteCPath(q)).toThrow(/quoted path/));
});

describe('parseTagRefs (for-each-ref %00 fields)', () => {
  it('returns each tag and its (peeled) commit', () => {
    const name = fc.stringMatching(/^[A-Za-z0-9._/-]{1,20}$/);
    fc.assert(
      fc.property(fc.uniqueArray(fc.record({ name, object: sha, peeled: fc.option(sha, { nil: '' }) }), { selector: (t) => t.name, maxLength: 6 }), (tags) => {
        const out = tags.map((t) => `${t.name}\0${t.object}\0${t.peeled}\n`).join('');
        expect(parseTagRefs(out)).toEqual(new Map(tags.map((t) => [t.name, t.peeled || t.object])));
      }),
    );
  });
});

describe('parsePatchLog (git log -p --unified=0 --format=<nonce>COMMIT_FORMAT)', () => {
  const line = noNulNl();
  const DIGESTS = /\b(sha256:[0-9a-f]{64}|sha384:[0-9a-f]{96}|sha512:[0-9a-f]{128})\b/g;
  const digestLine = fc.tuple(line, fc.constantFrom(DIGEST('1'), DIGEST('2'), DIGEST('3')), line).map(([a, d, b]) => `${a} ${d} ${b}`);
  const content = fc.array(fc.oneof(line, digestLine), { maxLength: 4 });
  const path = noNul().filter((p) => p !== '' && !p.startsWith('/'));
  const fileDiff = fc.record({ path, oldLines: content, newLines: content, context: content, quoteHigh: fc.boolean(), noEol: fc.boolean() });
  const patchCommit = fc.record({ header: commit, files: fc.array(fileDiff, { maxLength: 3 }) });

  /** A file's diff exactly as git prints it (C-quoted or tab-suffixed names, @@ counts, "\ No newline"). */
  function formatFile(f: { path: string; oldLines: string[]; newLines: string[]; context: string[]; quoteHigh: boolean; noEol: boolean }): string {
    const name = (prefix: string) => {
      const q = quoteC(Buffer.from(`${prefix}${f.path}`, 'utf8'), f.quoteHigh);
      return f.path.includes(' ') ? `${q}\t` : q;
    };
    // Context lines (diff.interHunkContext) count on both sides; an empty one is bare under diff.suppressBlankEmpty.
    const ctx = f.oldLines.length + f.newLines.length > 0 ? f.context : [];
    const hunkLines = [...ctx.map((l) => (l === '' ? '' : ` ${l}`)), ...f.oldLines.map((l) => `-${l}`), ...f.newLines.map((l) => `+${l}`)];
    if (f.noEol && hunkLines.length > 0) hunkLines.push('\\ No newline at end of file');
    const plain = (prefix: string) => quoteC(Buffer.from(`${prefix}${f.path}`, 'utf8'), f.quoteHigh);
    return [
      `diff --git ${plain('a/')} ${plain('b/')}`,
      'index 1111111..2222222 100644',
      `--- ${name('a/')}`,
      `+++ ${name('b/')}`,
      ...(hunkLines.length ? [`@@ -1,${ctx.length + f.oldLines.length} +1,${ctx.length + f.newLines.length} @@ ${f.oldLines[0] ?? ''}`.replace(/\n/g, ''), ...hunkLines] : []),
    ].join('\n');
  }

  it('returns every commit, and the digests each file adds and removes, exactly', () => {
    fc.assert(
      fc.property(fc.array(patchCommit, { maxLength: 4 }), (commits) => {
        const nonce = newNonce();
        const out = commits
          .map((c) => {
            const h = c.header;
            const head = `${nonce}${h.sha}\0${h.parentShas.join(' ')}\0${h.date}\0${h.subject}\0\n`;
            return c.files.length ? `${head}\n${c.files.map(formatFile).join('\n')}\n` : head;
          })
          .join('');
        const got = parsePatchLog(out, nonce);
        expect(got.map((o) => ({ sha: o.commit, parentShas: o.parentShas, date: o.date, subject: o.subject }))).toEqual(commits.map((c) => c.header));
        commits.forEach((c, i) => {
          const added = new Map<string, string>();
          const removed = new Map<string, string[]>();
          for (const f of c.files) {
            for (const l of f.oldLines) for (const m of l.matchAll(DIGESTS)) {
              const list = removed.get(m[1]!) ?? [];
              if (!list.includes(f.path)) list.push(f.path);
              removed.set(m[1]!, list);
            }
            for (const l of f.newLines) for (const m of l.matchAll(DIGESTS)) if (!added.has(m[1]!)) added.set(m[1]!, f.path);
          }
          expect(got[i]!.added).toEqual(added);
          expect(got[i]!.removed).toEqual(removed);
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseBatchBlobs (cat-file --batch)', () => {
  it('returns each blob exactly, whatever bytes it holds, and nothing for specs that name none', () => {
    const answer = fc.oneof(
      fc.record({ kind: fc.constant('blob' as const), bytes: fc.uint8Array({ maxLength: 40 }), text: hostileText() }),
      fc.record({ kind: fc.constantFrom('missing' as const, 'ambiguous' as const, 'tree' as const) }),
    );
    const spec = noNulNl().filter((p) => p !== '').map((p) => `v1:${p}`);
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(spec, answer), { selector: (a) => a[0], maxLength: 6 }), sha, (answers, objectName) => {
        const parts: Buffer[] = [];
        const want = new Map<string, string>();
        for (const [s, a] of answers) {
          if (a.kind === 'blob') {
            const body = Buffer.concat([Buffer.from(a.text, 'utf8'), Buffer.from(a.bytes)]);
            parts.push(Buffer.from(`${objectName} blob ${body.length}\n`), body, Buffer.from('\n'));
            want.set(s, body.toString('utf8'));
          } else if (a.kind === 'tree') {
            parts.push(Buffer.from(`${objectName} tree 3\nabc\n`));
          } else parts.push(Buffer.from(`${s} ${a.kind}\n`));
        }
        expect(parseBatchBlobs(Buffer.concat(parts), answers.map((a) => a[0]))).toEqual(want);
      }),
    );
  });
});

describe('parsePrefixAndCommit (rev-parse --show-prefix --verify)', () => {
  it('keeps a prefix holding newlines and finds the sha on the last line', () => {
    fc.assert(
      fc.property(noNul().map((p) => (p ? `${p}/` : '')), fc.option(sha, { nil: undefined }), (prefix, commit) => {
        const out = commit ? `${prefix}\n${commit}\n` : `${prefix}\n`;
        expect(parsePrefixAndCommit(out, commit !== undefined)).toEqual(commit ? { prefix, commit } : { prefix });
      }),
    );
  });
});

describe('parsePatchIds (patch-id --stable)', () => {
  it('maps each commit to its patch id', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(sha, sha), { selector: (p) => p[1], maxLength: 6 }), (pairs) => {
        expect(parsePatchIds(pairs.map(([id, c]) => `${id} ${c}\n`).join(''))).toEqual(new Map(pairs.map(([id, c]) => [c, id])));
      }),
    );
  });
});
