/** The plain-HTTP rule applied to every hop, table-driven (the hops themselves run against real servers in test/hostile). */
import { describe, expect, it } from 'vitest';
import { RegistryError } from './errors.js';
import { checkHop } from './redirect.js';
import { plainHttpHopAllowed } from './transport.js';

describe('plainHttpHopAllowed', () => {
  it.each([
    ['https target, always', 'https://ghcr.io', [], 'https://pkg-containers.githubusercontent.com/x', true],
    ['https registry downgraded to http on its own host', 'https://ghcr.io', [], 'http://ghcr.io/v2/x', false],
    ['https registry to http elsewhere', 'https://ghcr.io', [], 'http://evil.example.com/x', false],
    ['https registry, target host listed insecure', 'https://ghcr.io', ['blobs.lan'], 'http://blobs.lan/x', true],
    ['https registry, target host:port listed insecure', 'https://ghcr.io', ['blobs.lan:9000'], 'http://blobs.lan:9000/x', true],
    ['loopback registry, same hostname other port', 'http://127.0.0.1:5000', [], 'http://127.0.0.1:9000/x', true],
    ['loopback registry to another loopback address', 'http://127.0.0.1:5000', [], 'http://127.0.0.2:5000/x', false],
    ['loopback registry to an outside host', 'http://127.0.0.1:5000', [], 'http://evil.example.com/x', false],
    ['insecure registry, same hostname', 'http://registry.lan:5000', ['registry.lan:5000'], 'http://registry.lan:9000/x', true],
    ['insecure registry to another host', 'http://registry.lan:5000', ['registry.lan:5000'], 'http://other.lan/x', false],
  ])('%s', (_what, base, insecure, target, want) => {
    expect(plainHttpHopAllowed(base, insecure, new URL(target))).toBe(want);
  });
});

describe('checkHop', () => {
  const policy = { plainHttpAllowed: (u: URL) => plainHttpHopAllowed('https://ghcr.io', [], u), authOrigin: 'https://ghcr.io' };
  it.each([
    ['file:', 'file:///etc/passwd', /only http and https are followed/],
    ['data:', 'data:text/plain,x', /only http and https are followed/],
    ['downgrade', 'http://ghcr.io/v2/', /refusing plain-http http:\/\/ghcr\.io\/v2\/ \(a redirect from https:\/\/ghcr\.io\/v2\/x\)/],
  ])('refuses %s', (_what, target, message) => {
    let caught: unknown;
    try {
      checkHop(new URL(target), policy, 'https://ghcr.io/v2/x');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(RegistryError);
    expect((caught as RegistryError).code).toBe('redirect-refused');
    expect((caught as RegistryError).message).toMatch(message);
  });

  it('lets https through', () => {
    expect(() => checkHop(new URL('https://blobs.example/x?X-Amz-Signature=abc'), policy)).not.toThrow();
  });
});
