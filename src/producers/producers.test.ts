import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../../test/support/repo.js';
import { defaultConfig } from '../config/defaults.js';
import type { Config } from '../config/types.js';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { deriveBuildInputs } from '../sources/index.js';
import { loadBuildModel, producersFor, recipesFor } from './index.js';
import type { BuildModel } from './types.js';

const COMMON = `REGISTRY ?= ghcr.io/acme/platform
IMAGE_TAG ?= dev
PUSH := 1
BUILDX_ARGS := --provenance=false --push=$(PUSH)
define image-tags
--tag $(REGISTRY)/$(1):$(IMAGE_TAG)$(if $(filter 1,$(PUBLISH_VERSIONED)), --tag $(REGISTRY)/$(1):$(2))
endef
`;

const OBJECTSTORAGE = `export NAME=objectstorage-controller
include ../../hack/common.mk

image: image-controller image-sidecar
image-controller image-sidecar:
	$(eval TARGET      := $(subst image-,,$@))
	$(eval VALUES_FILE := $(if $(filter sidecar,$(TARGET)),../seaweedfs/values.yaml,values.yaml))
	$(eval YAML_PATH   := $(if $(filter sidecar,$(TARGET)),.seaweedfs.cosi.sidecar.image,.objectstorage.controller.image))
	docker buildx build images/objectstorage \\
		--target $(TARGET) \\
		$(call image-tags,objectstorage-$(TARGET),v1) \\
		--metadata-file images/$(TARGET).json \\
		$(BUILDX_ARGS)
	IMAGE="$(REGISTRY)/objectstorage-$(TARGET):$(IMAGE_TAG)@$$(yq e '."containerimage.digest"' images/$(TARGET).json -r)" \\
		yq -i '$(YAML_PATH) = strenv(IMAGE)' $(VALUES_FILE)
	rm -f images/$(TARGET).json
	yq .seaweedfs.cosi.sidecar.image ../seaweedfs/values.yaml > ../extra/images/objectstorage-sidecar.tag
`;

const PLATFORM = `include ../../hack/common.mk
image: image-migrations
image-migrations:
	docker buildx build -f images/migrations/Dockerfile ../.. \\
		$(call image-tags,platform-migrations,v1) \\
		--metadata-file images/migrations.json
	IMAGE="$(REGISTRY)/platform-migrations:$(IMAGE_TAG)@$$(yq -r '.["containerimage.digest"]' images/migrations.json)" \\
		yq --inplace '.migrations.image = strenv(IMAGE)' values.yaml
	IMAGE="$(REGISTRY)/platform-migrations:$(IMAGE_TAG)@$$(yq -r '.["containerimage.digest"]' images/migrations.json)" \\
		yq --inplace '.backup.clientImage = strenv(IMAGE)' ../backup/values.yaml
`;

const ORPHAN = `include ../../hack/common.mk
image:
	docker build -t $(REGISTRY)/orphan:$(IMAGE_TAG) --iidfile images/orphan.id images/orphan
	echo "$(REGISTRY)/orphan:$(IMAGE_TAG)@$$(cat images/orphan.id)" > images/orphan.tag
	IMAGE=$$(cat images/orphan.tag) yq -i '.orphan.image = strenv(IMAGE)' values.yaml
	REPOSITORY="$(REGISTRY)/orphan" yq -i '.split.image.repository = strenv(REPOSITORY)' values.yaml
`;

const DASHBOARD = `include ../../hack/common.mk
image: image-console
image-console: build-console update-values-console
build-console:
	docker buildx build images/console --file images/console/Containerfile $(call image-tags,console,v1) --metadata-file images/console.json
update-values-console:
	IMAGE="$(REGISTRY)/console:$(IMAGE_TAG)@$$(yq e '."containerimage.digest"' images/console.json -r)" yq -i '.console.image = strenv(IMAGE)' values.yaml
`;

const ROOT = `include hack/common.mk
build: build-deps
	make -C packages/objectstorage image
	$(MAKE) -C packages/platform image
	cd packages/dashboard && make image
	make -C packages/broken
	make -C packages/ghost image
build-deps:
	@command -V docker
`;

const FILES: Record<string, string> = {
  Makefile: ROOT,
  'hack/common.mk': COMMON,
  'packages/objectstorage/Makefile': OBJECTSTORAGE,
  'packages/objectstorage/values.yaml': 'objectstorage:\n  controller:\n    image: x\n',
  'packages/objectstorage/images/objectstorage/Dockerfile': 'FROM scratch AS controller\nFROM scratch AS sidecar\n',
  'packages/seaweedfs/values.yaml': 'seaweedfs:\n  cosi:\n    sidecar:\n      image: y\n',
  'packages/extra/images/objectstorage-sidecar.tag': 'y\n',
  'packages/platform/Makefile': PLATFORM,
  'packages/platform/values.yaml': 'migrations:\n  image: z\n',
  'packages/platform/images/migrations/Dockerfile': 'FROM scratch\n',
  'packages/backup/values.yaml': 'backup:\n  clientImage: z\n',
  'packages/orphan/Makefile': ORPHAN,
  'packages/orphan/values.yaml': 'orphan:\n  image: o\n',
  'packages/orphan/images/orphan/Dockerfile': 'FROM scratch\n',
  'packages/dashboard/Makefile': DASHBOARD,
  'packages/dashboard/values.yaml': 'console:\n  image: c\n',
  'packages/dashboard/images/console/Containerfile': 'FROM scratch\n',
  'packages/broken/Makefile': 'this line has no separator\ndefine never-closed\n',
};

function config(over: Partial<Config> = {}): Config {
  return { ...defaultConfig(), firstParty: ['ghcr.io/acme/'], ...over };
}

let repo: TestRepo;
let model: BuildModel;

beforeAll(async () => {
  repo = makeRepo('pinwatch-producers-');
  repo.commit(FILES, 'tree');
  model = await loadBuildModel(repo.dir, config());
});
afterAll(() => repo.cleanup());

const producer = (id: string) => model.producers.find((p) => p.id === id);

describe('objectstorage pattern: multi-target rule with $(eval), $(subst), $(filter)', () => {
  it('gives one recipe per target with stage, context and repository', () => {
    const recipes = model.recipes.filter((r) => r.makefile === 'packages/objectstorage/Makefile');
    expect(recipes.map((r) => [r.target, r.stage, r.context, r.dockerfile, r.repositories])).toEqual([
      ['image-controller', 'controller', 'packages/objectstorage/images/objectstorage', 'packages/objectstorage/images/objectstorage/Dockerfile', ['ghcr.io/acme/platform/objectstorage-controller']],
      ['image-sidecar', 'sidecar', 'packages/objectstorage/images/objectstorage', 'packages/objectstorage/images/objectstorage/Dockerfile', ['ghcr.io/acme/platform/objectstorage-sidecar']],
    ]);
    expect(recipes[0]!.command).toContain('--tag ghcr.io/acme/platform/objectstorage-controller:dev');
  });

  it('the sidecar target writes the other package values file, and the .tag copy is in lockstep with it', () => {
    const sidecar = producer('packages/objectstorage/Makefile:image-sidecar')!;
    expect(sidecar.writes.map((w) => [w.file, w.keyPath, w.via])).toEqual([
      ['packages/seaweedfs/values.yaml', 'seaweedfs.cosi.sidecar.image', 'yq'],
      ['packages/extra/images/objectstorage-sidecar.tag', undefined, 'redirect'],
    ]);
    expect(sidecar.writes[0]!.refId).toBe(sidecar.writes[1]!.refId);
    expect(sidecar.writes[0]!.source).toEqual({ file: 'packages/objectstorage/Makefile', line: 14 });
  });

  it('the controller target writes its own key; its .tag copy names the key it copies', () => {
    const controller = producer('packages/objectstorage/Makefile:image-controller')!;
    expect(controller.writes.map((w) => [w.file, w.keyPath, w.refId])).toEqual([
      ['packages/objectstorage/values.yaml', 'objectstorage.controller.image', 'packages/objectstorage/Makefile:image-controller#1'],
      ['packages/extra/images/objectstorage-sidecar.tag', undefined, 'copy-of:packages/seaweedfs/values.yaml#seaweedfs.cosi.sidecar.image'],
    ]);
  });

  it('producersFor and recipesFor find them by pin location and repository', () => {
    expect(producersFor(model, 'packages/seaweedfs/values.yaml', 'seaweedfs.cosi.sidecar.image').map((p) => p.id)).toEqual(['packages/objectstorage/Makefile:image-sidecar']);
    expect(producersFor(model, 'packages/seaweedfs/values.yaml', '.seaweedfs.cosi').map((p) => p.id)).toEqual(['packages/objectstorage/Makefile:image-sidecar']);
    expect(producersFor(model, 'packages/seaweedfs/values.yaml', 'seaweedfs.other')).toEqual([]);
    expect(recipesFor(model, 'ghcr.io/acme/platform/objectstorage-sidecar', []).map((r) => r.target)).toEqual(['image-sidecar']);
    expect(recipesFor(model, 'nope/x', [{ file: 'packages/objectstorage/values.yaml', keyPath: 'objectstorage.controller.image' }]).map((r) => r.target)).toEqual(['image-controller']);
  });
});

describe('lockstep', () => {
  it('writes of the same value in one target share a refId across packages', () => {
    const p = producer('packages/platform/Makefile:image-migrations')!;
    expect(p.writes.map((w) => w.file)).toEqual(['packages/platform/values.yaml', 'packages/backup/values.yaml']);
    expect(new Set(p.writes.map((w) => w.refId)).size).toBe(1);
    const [recipe] = recipesFor(model, 'ghcr.io/acme/platform/platform-migrations', []);
    expect(recipe).toMatchObject({ context: '.', dockerfile: 'packages/platform/images/migrations/Dockerfile' });
    expect(recipe!.stamps).toHaveLength(2);
  });

  it('a write of $(cat f.tag) shares the refId of the .tag write; a different value does not', () => {
    const p = producer('packages/orphan/Makefile:image')!;
    const [tag, copy, split] = p.writes;
    expect([tag!.file, tag!.via, copy!.keyPath, split!.keyPath]).toEqual(['packages/orphan/images/orphan.tag', 'redirect', 'orphan.image', 'split.image.repository']);
    expect(copy!.refId).toBe(tag!.refId);
    expect(split!.refId).not.toBe(tag!.refId);
  });
});

describe('build entry graph', () => {
  it('marks producers reached from Makefile:build, with the path', () => {
    expect(producer('packages/objectstorage/Makefile:image-sidecar')).toMatchObject({
      built: true,
      builtVia: ['Makefile:build', 'packages/objectstorage/Makefile:image', 'packages/objectstorage/Makefile:image-sidecar'],
    });
    expect(producer('packages/platform/Makefile:image-migrations')!.built).toBe(true);
    expect(producer('packages/dashboard/Makefile:update-values-console')!.builtVia).toEqual([
      'Makefile:build',
      'packages/dashboard/Makefile:image',
      'packages/dashboard/Makefile:image-console',
      'packages/dashboard/Makefile:update-values-console',
    ]);
  });

  it('a package the root build never calls stamps but is not built', () => {
    const p = producer('packages/orphan/Makefile:image')!;
    expect(p.built).toBe(false);
    expect(p.builtVia).toBeUndefined();
  });

  it('a stamp in another target is tied to its build through the metadata file', () => {
    const [console] = recipesFor(model, 'ghcr.io/acme/platform/console', []);
    expect(console).toMatchObject({ target: 'build-console', dockerfile: 'packages/dashboard/images/console/Containerfile' });
    expect(console!.stamps.map((s) => s.keyPath)).toEqual(['console.image']);
  });

  it('a sub-make into a directory without a Makefile is a problem', () => {
    expect(model.problems).toContainEqual(expect.objectContaining({ file: 'Makefile', line: 7, code: 'build-makefile-missing' }));
  });

  it('a declared producer is added as declared, built by default', async () => {
    const m = await loadBuildModel(repo.dir, config({ producers: [{ name: 'hack/release.sh', writes: ['packages/x/values.yaml#.a.image', 'packages/x/images/a.tag'] }] }));
    const d = m.producers.find((p) => p.id === 'hack/release.sh')!;
    expect(d).toMatchObject({ built: true, writes: [{ file: 'packages/x/values.yaml', keyPath: 'a.image', via: 'declared' }, { file: 'packages/x/images/a.tag', via: 'declared' }] });
    expect(d.writes[0]!.refId).toBe(d.writes[1]!.refId);
    expect(producersFor(m, 'packages/x/images/a.tag').map((p) => p.id)).toEqual(['hack/release.sh']);
  });

  it('a build entry that does not exist is a problem, and nothing is built', async () => {
    const m = await loadBuildModel(repo.dir, config({ buildEntry: 'nope.mk:all' }));
    expect(m.problems).toContainEqual(expect.objectContaining({ code: 'build-entry-missing', file: 'nope.mk' }));
    expect(m.producers.every((p) => !p.built)).toBe(true);
    expect(m.producers.length).toBe(model.producers.length);
  });
});

describe('computed names and shell variables', () => {
  it('a $(foreach) over $(shell) output writes every existing file its pattern matches, each its own ref', async () => {
    const r = makeRepo('pinwatch-producers-foreach-');
    try {
      r.write({
        Makefile: [
          'VERSIONS = $(shell cat versions.txt)',
          'build:',
          '\t$(foreach v,$(VERSIONS), docker build -t ghcr.io/acme/disk:$(v) images/disk && \\',
          '\t\techo "ghcr.io/acme/disk:$(v)@$$(cat id)" > images/disk-$(v).tag; )',
          '',
        ].join('\n'),
        'images/disk/Dockerfile': 'FROM scratch\n',
        'images/disk-v1.tag': 'x\n',
        'images/disk-v2.tag': 'y\n',
        'images/other.tag': 'z\n',
      });
      const m = await loadBuildModel(r.dir, config());
      const p = m.producers[0]!;
      expect(p.writes.map((w) => w.file)).toEqual(['images/disk-v1.tag', 'images/disk-v2.tag']);
      expect(p.writes[0]!.refId).not.toBe(p.writes[1]!.refId);
      expect(m.problems).toContainEqual(expect.objectContaining({ code: 'producer-target-guessed', line: 3 }));
      expect(m.recipes[0]!.repositories).toEqual(['ghcr.io/acme/disk']);
    } finally {
      r.cleanup();
    }
  });

  it('shell variables carry a value from echo > .tag to sed -i in lockstep', async () => {
    const r = makeRepo('pinwatch-producers-sed-');
    try {
      r.write({
        Makefile: [
          'BASE = ghcr.io/acme/cp',
          'image:',
          '\tdocker buildx build images/cp --tag $(BASE):v1 --metadata-file images/cp.json',
          '\tdigest=$$(yq e \'."containerimage.digest"\' images/cp.json -o json -r); \\',
          '\tIMG="$(BASE):v1@$$digest"; \\',
          '\techo "$$IMG" > images/cp.tag; \\',
          '\tsed -i.bak -E "s|image: ghcr\\.io/.+/cp:[^[:space:]]+|image: $$IMG|" files/components.yaml; \\',
          '\tsed -i "s/namespace: a/namespace: b/" files/components.yaml',
          '',
        ].join('\n'),
        'images/cp/Dockerfile': 'FROM scratch\n',
        'images/cp.tag': 'x\n',
        'files/components.yaml': 'image: ghcr.io/acme/cp:v0\n',
      });
      const m = await loadBuildModel(r.dir, config());
      const p = m.producers[0]!;
      expect(p.writes.map((w) => [w.file, w.via])).toEqual([
        ['images/cp.tag', 'redirect'],
        ['files/components.yaml', 'sed'],
      ]);
      expect(p.writes[0]!.refId).toBe(p.writes[1]!.refId);
      expect(m.recipes[0]!.stamps).toHaveLength(2);
    } finally {
      r.cleanup();
    }
  });
});

describe('problems instead of crashes', () => {
  it('a malformed Makefile reports file:line', () => {
    expect(model.problems).toContainEqual(expect.objectContaining({ file: 'packages/broken/Makefile', line: 1, code: 'make-missing-separator' }));
    expect(model.problems).toContainEqual(expect.objectContaining({ file: 'packages/broken/Makefile', line: 2, code: 'make-unterminated-define' }));
  });

  it('a write to a file that does not exist is kept and reported', async () => {
    const r = makeRepo('pinwatch-producers-missing-');
    try {
      r.write({
        Makefile: 'build:\n\tIMAGE=x yq -i \'.a.image = strenv(IMAGE)\' gone/values.yaml\n\techo "$$IMAGE" > images/gone.tag\n',
      });
      const m = await loadBuildModel(r.dir, config());
      expect(m.producers[0]!.writes.map((w) => w.file)).toEqual(['gone/values.yaml', 'images/gone.tag']);
      expect(m.problems.filter((p) => p.code === 'producer-target-missing').map((p) => [p.file, p.line])).toEqual([
        ['Makefile', 2],
        ['Makefile', 3],
      ]);
      expect(m.producers[0]!.built).toBe(true);
    } finally {
      r.cleanup();
    }
  });
  it('a line-editing write to a FIFO or to /dev/zero is reported and never read (no hang, no endless read)', async () => {
    const r = makeRepo('pinwatch-producers-fifo-');
    try {
      r.write({ Makefile: "build:\n\tsed -i '/app/s|image: .*|image: $$I|' fifo/values.yaml\n\tsed -i '/app/s|image: .*|image: $$I|' zero/values.yaml\n" });
      mkdirSync(join(r.dir, 'fifo'));
      execFileSync('mkfifo', [join(r.dir, 'fifo/values.yaml')]);
      mkdirSync(join(r.dir, 'zero'));
      symlinkSync('/dev/zero', join(r.dir, 'zero/values.yaml'));
      const m = await loadBuildModel(r.dir, config());
      expect(m.producers[0]!.writes.map((w) => [w.file, w.lines])).toEqual([['fifo/values.yaml', undefined], ['zero/values.yaml', undefined]]);
      expect(m.problems.filter((p) => p.code === 'producer-target-missing').map((p) => [p.line, p.reason])).toEqual([
        [2, 'sed writes "fifo/values.yaml", which is a FIFO (named pipe), not a regular file'],
        [3, 'sed writes "zero/values.yaml", which is a character device, not a regular file'],
      ]);
    } finally {
      r.cleanup();
    }
  });
  it('a build context above the root stays relative (../..), so its inputs are outside the repository, not a look-alike path', async () => {
    const r = makeRepo('pinwatch-producers-outside-');
    try {
      r.write({
        'platform/Makefile': 'build:\n\tmake -C pkg image\n',
        'platform/pkg/Makefile':
          'image:\n\tdocker buildx build -f images/x/Dockerfile ../.. --tag ghcr.io/acme/x:v1 --metadata-file x.json\n\tIMAGE="ghcr.io/acme/x:v1@$$(yq -r .d x.json)" yq -i \'.x.image = strenv(IMAGE)\' values.yaml\n',
        'platform/pkg/images/x/Dockerfile': 'FROM scratch\nCOPY go.mod /\n',
        'platform/pkg/values.yaml': 'x:\n  image: ghcr.io/acme/x:v1\n',
        'go.mod': 'module example.test/x\n',
      });
      const m = await loadBuildModel(join(r.dir, 'platform'), config());
      const recipe = m.recipes.find((x) => x.makefile === 'pkg/Makefile')!;
      expect([recipe.context, recipe.dockerfile]).toEqual(['..', 'pkg/images/x/Dockerfile']);
      const inputs = await deriveBuildInputs(join(r.dir, 'platform'), { image: 'x', recipe });
      expect(inputs.unknownReason).toBe('.. is outside the repository (from recipe pkg/Makefile:2)');
    } finally {
      r.cleanup();
    }
  });
  it('a sed -i write covers only the lines its pattern matches; a pattern matching nothing covers the file', async () => {
    const r = makeRepo('pinwatch-producers-sed-lines-');
    try {
      r.write({
        Makefile: 'build:\n\tmake -C pkg image\n',
        'pkg/Makefile': [
          'image:',
          '\tdocker buildx build . --tag ghcr.io/acme/x:v1 --metadata-file x.json',
          '\tIMG="ghcr.io/acme/x:v1@$$(yq -r .d x.json)"; sed -i.bak -E "s|image: ghcr\\.io/.+/x:[^[:space:]]+|image: $$IMG|" files/a.yaml; sed -i "s|image: gone/.*|image: $$IMG|" files/b.yaml',
          '',
        ].join('\n'),
        'pkg/files/a.yaml': 'a:\n  image: registry.k8s.io/proxy:v1\nb:\n  image: ghcr.io/acme/x:v0@sha256:00\n',
        'pkg/files/b.yaml': 'a:\n  image: ghcr.io/acme/x:v0\n',
      });
      const m = await loadBuildModel(r.dir, config());
      const writes = m.producers.find((p) => p.id === 'pkg/Makefile:image')!.writes;
      expect(writes.map((w) => [w.file, w.via, w.lines])).toEqual([
        ['pkg/files/a.yaml', 'sed', [4]],
        ['pkg/files/b.yaml', 'sed', undefined],
      ]);
      expect(producersFor(m, 'pkg/files/a.yaml', 'a.image', 2)).toEqual([]);
      expect(producersFor(m, 'pkg/files/a.yaml', 'b.image', 4).map((p) => p.id)).toEqual(['pkg/Makefile:image']);
    } finally {
      r.cleanup();
    }
  });
  it('targets that sed-edit one file (read once per model) each cover the lines of their own pattern', async () => {
    const r = makeRepo('pinwatch-producers-sed-shared-');
    try {
      r.write({
        Makefile: [
          'build: one two three again',
          'one:',
          '\tIMG="ghcr.io/acme/one:v2@$$(cat one.digest)"; sed -i "s|image: ghcr.io/acme/one:.*|image: $$IMG|" values.yaml',
          'two:',
          '\tIMG="ghcr.io/acme/two:v2@$$(cat two.digest)"; sed -i "s|image: ghcr.io/acme/two:.*|image: $$IMG|" values.yaml',
          'three:',
          '\tIMG="ghcr.io/acme/one:v2@$$(cat one.digest)"; sed -i "s|image: ghcr.io/acme/one:.*|image: $$IMG|" other.yaml',
          'again:',
          '\tIMG="ghcr.io/acme/one:v3@$$(cat one.digest)"; sed -i "s|image: ghcr.io/acme/one:.*|image: $$IMG|" values.yaml',
          '',
        ].join('\n'),
        'values.yaml': 'a:\n  image: ghcr.io/acme/one:v1\nb:\n  image: ghcr.io/acme/two:v1\n',
        'other.yaml': 'x: 1\ny: 2\nz:\n  image: ghcr.io/acme/one:v1\n',
      });
      const m = await loadBuildModel(r.dir, config());
      expect(m.producers.map((p) => [p.id, p.writes.map((w) => w.lines)])).toEqual([
        ['Makefile:one', [[2]]],
        ['Makefile:two', [[4]]],
        ['Makefile:three', [[4]]],
        ['Makefile:again', [[2]]],
      ]);
    } finally {
      r.cleanup();
    }
  });
});
