/** The github.com origin of a git config (origin-query.ts): the github context's `repository`, and the snapshot's answer. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { githubOriginOf, originQueryAnswer } from './origin-query.js';

const origin = (url: string) => `[core]\n\tbare = false\n[remote "origin"]\n\turl = ${url}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`;

describe('githubOriginOf', () => {
  it.each([
    ['https', origin('https://github.com/acme/app'), 'acme/app'],
    ['https, .git', origin('https://github.com/acme/app.git'), 'acme/app'],
    ['https, trailing slash', origin('https://github.com/acme/app/'), 'acme/app'],
    ['scp-like ssh', origin('git@github.com:Acme/app.git'), 'Acme/app'],
    ['ssh URL', origin('ssh://git@github.com/acme/app.git'), 'acme/app'],
    ["a CI checkout's token beside it", `${origin('https://github.com/acme/app')}[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic abc\n`, 'acme/app'],
    ['another host', origin('https://gitlab.com/acme/app'), undefined],
    ['github only in another remote', '[remote "upstream"]\n\turl = https://github.com/acme/app\n', undefined],
    ['no remote', '[core]\n\tbare = false\n', undefined],
  ])('%s', (_what, config, want) => {
    expect(githubOriginOf(config)).toBe(want);
  });

  it('is asked again of the file as the snapshot keeps it: the origin, or - when there is none or no file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-origin-'));
    try {
      writeFileSync(join(dir, 'config'), origin('https://github.com/acme/app'));
      expect(originQueryAnswer(join(dir, 'config'))).toBe('acme/app');
      writeFileSync(join(dir, 'config'), origin('https://example.com/acme/app'));
      expect(originQueryAnswer(join(dir, 'config'))).toBe('-');
      expect(originQueryAnswer(join(dir, 'missing'))).toBe('-');
      expect(originQueryAnswer(dir)).toBe('-');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
