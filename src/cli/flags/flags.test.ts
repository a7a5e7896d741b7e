import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../context.js';
import { firstPartyFlag, pickFormat } from './global.js';
import { registryClientOptions } from './registry.js';
import { parseFailOnStale, parseMaxAge, stalePolicy } from './stale.js';

describe('stale policy flags', () => {
  it.each([
    [undefined, 'fix'],
    ['fix', 'fix'],
    ['any', 'any'],
    ['unknown', 'unknown'],
    ['never', 'never'],
  ])('--fail-on-stale %s → %s', (value, want) => {
    expect(parseFailOnStale(value)).toBe(want);
  });

  it.each([
    [undefined, undefined],
    ['7', 7],
    ['0.5', 0.5],
  ])('--max-age %s → %s', (value, want) => {
    expect(parseMaxAge(value)).toBe(want);
  });

  it('bad values name the flag, quote the input and say what is expected', () => {
    expect(() => parseFailOnStale('sometimes')).toThrow('--fail-on-stale must be fix, any, unknown or never; saw "sometimes"');
    expect(() => parseMaxAge('7d')).toThrow('--max-age must be a number of days, like 7; saw "7d"');
    expect(() => parseMaxAge('-1')).toThrow(expect.objectContaining({ code: 'invalid-max-age' }));
  });

  it('builds the library policy', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(stalePolicy({ failOnStale: 'any', maxAge: '3' }, now)).toEqual({ failOnStale: 'any', maxAgeDays: 3, now });
  });
});

describe('registry flags', () => {
  it('timeout, insecure hosts (config first) and --no-cache become client options', () => {
    const env = { HOME: '/home/x' };
    expect(registryClientOptions(env, { timeout: '500', insecureRegistry: ['flag.test:5000'], cache: false }, ['config.test'])).toEqual({
      env,
      insecureRegistries: ['config.test', 'flag.test:5000'],
      timeoutMs: 500,
      cacheDir: false,
    });
    expect(registryClientOptions(env, {}, [])).toEqual({ env, insecureRegistries: [], timeoutMs: 30000 });
  });

  it.each(['0', '-5', '1.5', 'soon'])('--timeout %s is refused', (timeout) => {
    expect(() => registryClientOptions({}, { timeout }, [])).toThrow(`--timeout must be a positive number of milliseconds; saw "${timeout}"`);
  });
});

describe('global flags', () => {
  const ctx = (format?: string) => ({ global: { repo: '/r', firstParty: [], format }, io: { out() {}, err() {}, env: {}, cwd: '/' } }) as CommandContext;

  it('--format: the fallback, an allowed value, or a usage error listing the allowed ones', () => {
    expect(pickFormat(ctx(), ['text', 'json'], 'text')).toBe('text');
    expect(pickFormat(ctx('json'), ['text', 'json'], 'text')).toBe('json');
    expect(() => pickFormat(ctx('sarif'), ['text', 'json'], 'text')).toThrow('--format must be one of text, json for this command; saw "sarif"');
  });

  it('--first-party: the library says what is wrong, the CLI names the flag', () => {
    expect(firstPartyFlag(['ghcr.io/acme/'])).toEqual(['ghcr.io/acme/']);
    const run = () => firstPartyFlag(['ghcr.io/acme/', 'acme']);
    expect(run).toThrow(/^--first-party: "acme" does not start with a registry host/);
    expect(run).toThrow(expect.objectContaining({ code: 'invalid-first-party-prefix' }));
  });
});
