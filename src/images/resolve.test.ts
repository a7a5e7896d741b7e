import { describe, expect, it } from 'vitest';
import { PinwatchError } from '../errors.js';
import { resolveImage, type NamedImage } from './resolve.js';

const img = (repository: string, key?: string): NamedImage => ({
  image: key ?? repository.slice(repository.lastIndexOf('/') + 1),
  repository,
  ...(key ? { declared: { key } } : {}),
});

const IMAGES: NamedImage[] = [
  img('ghcr.io/acme/a/controller'),
  img('ghcr.io/acme/b/controller'),
  img('ghcr.io/acme/billing'),
  img('ghcr.io/acme/web-frontend', 'web'),
  img('ghcr.io/acme/api', 'backend'),
  img('ghcr.io/acme/backend'),
  img('docker.io/library/nginx'),
];

function outcome(query: string): string {
  try {
    return resolveImage(query, IMAGES).repository;
  } catch (e) {
    if (!(e instanceof PinwatchError)) throw e;
    return `${e.code}: ${e.message}`;
  }
}

describe('resolveImage: one rule for every IMAGE argument', () => {
  it.each([
    // exact repository
    ['ghcr.io/acme/a/controller', 'ghcr.io/acme/a/controller'],
    // a full reference names its repository; tag and digest are ignored
    ['ghcr.io/acme/billing:v1.2.0', 'ghcr.io/acme/billing'],
    [`ghcr.io/acme/billing@sha256:${'a'.repeat(64)}`, 'ghcr.io/acme/billing'],
    ['nginx:1.27', 'docker.io/library/nginx'],
    // the short name (last path component)
    ['billing', 'ghcr.io/acme/billing'],
    ['nginx', 'docker.io/library/nginx'],
    // a declared images: key, and the repository's own last component still names it
    ['web', 'ghcr.io/acme/web-frontend'],
    ['web-frontend', 'ghcr.io/acme/web-frontend'],
    // a declared key wins over another repository's last component
    ['backend', 'ghcr.io/acme/api'],
    // the trailing path the stale table shows for two images of one short name
    ['a/controller', 'ghcr.io/acme/a/controller'],
    ['acme/b/controller', 'ghcr.io/acme/b/controller'],
    // ambiguous short name: listed, never a silent pick
    ['controller', 'image-ambiguous: image "controller" matches 2 images: ghcr.io/acme/a/controller, ghcr.io/acme/b/controller; give the full repository (like ghcr.io/acme/a/controller)'],
    // unknown, with the closest name
    ['biling', 'image-unknown: no image "biling" is pinned in this tree; did you mean "billing"? (expected one of: backend, billing, controller, nginx, web)'],
    ['ghcr.io/acme/bilIing', 'image-unknown: no image "ghcr.io/acme/bilIing" is pinned in this tree; did you mean "ghcr.io/acme/billing"? (expected one of: backend, billing, controller, nginx, web)'],
    ['zzzzzzzzzzzz', 'image-unknown: no image "zzzzzzzzzzzz" is pinned in this tree (expected one of: backend, billing, controller, nginx, web)'],
    // case matters: repositories are lower case, so a guess is offered instead of a match
    ['Billing', 'image-unknown: no image "Billing" is pinned in this tree; did you mean "billing"? (expected one of: billing, backend, controller, nginx, web)'],
    ['troll', 'image-unknown: no image "troll" is pinned in this tree (expected one of: controller, backend, billing, nginx, web)'],
  ])('%s → %s', (query, expected) => {
    expect(outcome(query)).toBe(expected);
  });

  it('says why nothing can match when no image is known', () => {
    expect(() => resolveImage('app', [], { noneHint: 'no first-party image is pinned' })).toThrow('no image "app" is pinned in this tree (no first-party image is pinned)');
  });
});

describe('image-unknown lists a bounded number of names, the matching ones first', () => {
  it('20 images: 8 names shown, the rest counted', () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ image: `svc-${String(i).padStart(2, '0')}`, repository: `ghcr.io/acme/svc-${String(i).padStart(2, '0')}` }));
    expect(() => resolveImage('x-controller', many)).toThrow(/expected one of: svc-00, svc-01, svc-02, svc-03, svc-04, svc-05, svc-06, svc-07, … and 12 more\)$/);
  });
});
