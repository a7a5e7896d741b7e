/**
 * A recipe written in an included makefile (dapr's `docker/docker.mk`, included from the root
 * Makefile) is located where its build line is: explain and the inputs' origin name
 * `docker/docker.mk:3`, not the including Makefile's line 3.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';
import { reposRemovedAfterEach } from '../support/repo.js';

const newRepo = reposRemovedAfterEach('pinwatch-included-');

describe('a recipe in an included makefile', () => {
  it('is located in the included file, read from the Makefile that includes it', async () => {
    const r = newRepo();
    r.commit(
      {
        'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\nbuildEntry: none\n',
        Makefile: '# the root Makefile\n\n\ninclude docker/docker.mk\n',
        'docker/docker.mk': 'TAG ?= dev\ndocker-build:\n\tdocker build -f docker/Dockerfile -t ghcr.io/acme/daprd:$(TAG) .\n',
        'docker/Dockerfile': 'FROM scratch\nCOPY docker/Dockerfile /x\n',
      },
      'init',
    );
    const json = await runCli(['explain', 'daprd', '--format', 'json', '--no-cache'], { cwd: r.dir });
    expect(json.code, json.err).toBe(0);
    const doc = JSON.parse(json.out) as { recipes: { makefile: string; line: number; lineIn?: string; target: string }[]; digests: { inputs: { steps: string[] } }[] };
    expect(doc.recipes.map((x) => [x.makefile, x.lineIn, x.line, x.target])).toEqual([['Makefile', 'docker/docker.mk', 3, 'docker-build']]);
    const text = await runCli(['explain', 'daprd', '--no-cache'], { cwd: r.dir });
    expect(text.out).toContain('  docker/docker.mk:3 docker-build (read from Makefile): dockerfile docker/Dockerfile, context .');
    expect(text.out).toContain('(from recipe docker/docker.mk:3)');
  });
});
