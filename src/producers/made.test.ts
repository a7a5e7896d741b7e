import { describe, expect, it } from 'vitest';
import { readMade } from './made.js';

const at = { file: 'Makefile', line: 3 };

describe('readMade: what a recipe line makes for a later build', () => {
  it.each([
    ['cp a.yaml b.yaml ctx/crds/', { tool: 'cp', dest: '/r/ctx/crds', sources: ['/r/a.yaml', '/r/b.yaml'] }],
    ['cp -r ../charts/x/templates/*.yaml images/m/crds/', { tool: 'cp', dest: '/r/images/m/crds', sources: ['/charts/x/templates/*.yaml'] }],
    ['cp -t out/ a b', { tool: 'cp', dest: '/r/out', sources: ['/r/a', '/r/b'] }],
    ['go build -o bin/app ./cmd/app', { tool: 'go build', dest: '/r/bin/app', sources: ['/r/cmd/app'] }],
    ['go build -o bin/manager_amd64 -trimpath -ldflags "-s -w" main.go', { tool: 'go build', dest: '/r/bin/manager_amd64', sources: ['/r'] }],
    ['go build -ldflags=-s -o=out/x ./cmd/x ./cmd/y', { tool: 'go build', dest: '/r/out/x', sources: ['/r/cmd/x', '/r/cmd/y'] }],
    ['go build -C tools -o ../bin/t ./cmd/t', { tool: 'go build', dest: '/r/bin/t', sources: ['/r/tools/cmd/t'] }],
  ])('%s', (line, want) => {
    const argv = line.match(/"[^"]*"|\S+/g)!.map((w) => w.replace(/^"|"$/g, ''));
    expect(readMade(argv[0]!, argv, '/r', at, 1)).toEqual({ ...want, source: at, order: 1 });
  });

  it.each([
    ['cp only-one'],
    ['cp - out'],
    ['go build ./cmd/app'], // no -o: the binary's place is the package's name, not read
    ['go build -o bin/x github.com/acme/x/cmd/x'], // an import path
    ['go build -o bin/ ./...'], // a pattern
    ['go test -o x ./y'],
    ['docker build .'],
  ])('%s makes nothing read here', (line) => {
    const argv = line.split(' ');
    expect(readMade(argv[0]!, argv, '/r', at, 1)).toBeUndefined();
  });
});
