import { describe, expect, it } from 'vitest';
import { redactText, redactUrl, rememberSecret } from './redact.js';
import { parseChallenge } from './challenge.js';

describe('redaction', () => {
  it.each([
    ['https://user:pw@reg.example/v2/', 'https://reg.example/v2/'],
    ['https://auth.example/token?service=r&scope=x&access_token=abc', 'https://auth.example/token?service=r&scope=x&access_token=REDACTED'],
    ['https://s3.example/blob?X-Amz-Signature=deadbeef&a=1', 'https://s3.example/blob?X-Amz-Signature=REDACTED&a=1'],
  ])('redactUrl(%s)', (input, want) => {
    expect(redactUrl(input)).toBe(want);
  });

  it('removes authorization values, JWTs and remembered secrets from text', () => {
    rememberSecret('hunter2-long-password');
    const text = 'Authorization: Bearer abc.def-ghi, Basic dXNlcjpwdw== token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln and hunter2-long-password';
    const out = redactText(text);
    expect(out).toBe('Authorization: Bearer REDACTED, Basic REDACTED token REDACTED-JWT and REDACTED');
  });
});

describe('parseChallenge', () => {
  it.each([
    ['Bearer realm="https://auth.example/token",service="reg",scope="repository:a/b:pull"', 'bearer', { realm: 'https://auth.example/token', service: 'reg', scope: 'repository:a/b:pull' }],
    ['Bearer realm="r",error="insufficient_scope"', 'bearer', { realm: 'r', error: 'insufficient_scope' }],
    ['Basic realm="Registry Realm"', 'basic', { realm: 'Registry Realm' }],
  ])('%s', (header, scheme, params) => {
    expect(parseChallenge(header)).toEqual({ scheme, params });
  });
  it('returns undefined without a header', () => expect(parseChallenge(null)).toBeUndefined());
});
