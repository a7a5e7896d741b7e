/**
 * A temp repository shaped like the seeds: one violation of each lint rule, each
 * in its own package, with real Makefiles the producer reader parses.
 */
import { makeRepo, type TestRepo } from './repo.js';

export const D1 = `sha256:${'1'.repeat(64)}`;
export const D2 = `sha256:${'2'.repeat(64)}`;
export const D3 = `sha256:${'3'.repeat(64)}`;

/** A package Makefile whose `image` target builds `image` and stamps `yqPath` in `valuesFile`. */
export function packageMakefile(image: string, yqPath: string, valuesFile = 'values.yaml'): string {
  return [
    'include ../../../common.mk',
    '',
    'image:',
    `\tdocker buildx build images/${image} --tag $(REGISTRY)/${image}:$(IMAGE_TAG) --metadata-file images/${image}.json`,
    `\tIMAGE="$(REGISTRY)/${image}:$(IMAGE_TAG)@$$(yq e '."containerimage.digest"' images/${image}.json -r)" \\`,
    `\t\tyq -i '${yqPath} = strenv(IMAGE)' ${valuesFile}`,
    '',
  ].join('\n');
}

const PLATFORM_MAKEFILE = [
  'include ../../../common.mk',
  '',
  'image:',
  '\tdocker buildx build images/migrations --tag $(REGISTRY)/platform-migrations:$(IMAGE_TAG) --metadata-file images/migrations.json',
  `\tIMAGE="$(REGISTRY)/platform-migrations:$(IMAGE_TAG)@$$(yq e '."containerimage.digest"' images/migrations.json -r)" \\`,
  "\t\tyq -i '.migrations.image = strenv(IMAGE)' values.yaml",
  `\tIMAGE="$(REGISTRY)/platform-migrations:$(IMAGE_TAG)@$$(yq e '."containerimage.digest"' images/migrations.json -r)" \\`,
  "\t\tyq -i '.backupStrategyController.chBackupClientImage = strenv(IMAGE)' ../../system/bsc/values.yaml",
  `\tIMAGE="$(REGISTRY)/dashboard:$(IMAGE_TAG)@$$(yq e '."containerimage.digest"' images/migrations.json -r)" \\`,
  "\t\tyq -i '.dashboard.image = strenv(IMAGE)' ../../system/dashboard/values.yaml",
  '',
].join('\n');

const BUILT = ['packages/system/bsc', 'packages/core/platform', 'packages/system/osc', 'packages/extra/swfs', 'packages/system/mc', 'packages/system/dashboard', 'packages/core/installer'];

export const FILES = {
  bsc: 'packages/system/bsc/values.yaml',
  platform: 'packages/core/platform/values.yaml',
  osc: 'packages/system/osc/values.yaml',
  swfs: 'packages/extra/swfs/values.yaml',
  mc: 'packages/system/mc/values.yaml',
  installer: 'packages/core/installer/values.yaml',
  kilo: 'packages/system/kilo/values.yaml',
  dashboard: 'packages/system/dashboard/values.yaml',
} as const;

export function seedFiles(): Record<string, string> {
  const files: Record<string, string> = {
    'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\ninclude: ["packages/**/values.yaml", "packages/**/images/*.tag"]\n',
    'Makefile': `build:\n${BUILT.map((p) => `\tmake -C ${p} image\n`).join('')}`,
    'common.mk': 'REGISTRY ?= ghcr.io/acme\nIMAGE_TAG ?= v1.6.0\n',
    'packages/system/bsc/Makefile': packageMakefile('bsc', '.backupStrategyController.image'),
    'packages/core/platform/Makefile': PLATFORM_MAKEFILE,
    'packages/system/osc/Makefile': packageMakefile('objectstorage-controller', '.objectstorage.controller.image'),
    'packages/extra/swfs/Makefile': packageMakefile('objectstorage-controller', '.seaweedfs.cosi.image'),
    'packages/system/mc/Makefile': packageMakefile('migration-controller', '.migrationController.image'),
    'packages/core/installer/Makefile': packageMakefile('installer', '.cozystack.image'),
    'packages/system/kilo/Makefile': packageMakefile('kilo', '.kilo.image'),
    'packages/system/dashboard/Makefile': packageMakefile('dashboard', '.dashboard.image'),
    [FILES.bsc]: [
      'backupStrategyController:',
      `  image: "ghcr.io/acme/bsc:v1.6.0@${D1}"`,
      '  redisBackupClientImage: "ghcr.io/acme/redis-backup:v1.6.0"',
      `  chBackupClientImage: "ghcr.io/acme/platform-migrations:v1.4.0-rc.2@${D3}"`,
      `  busybox: "docker.io/library/busybox:1.37.0"`,
      '',
    ].join('\n'),
    [FILES.platform]: `migrations:\n  image: ghcr.io/acme/platform-migrations:v1.5.0@${D3}\n`,
    [FILES.osc]: `objectstorage:\n  controller:\n    image: ghcr.io/acme/objectstorage-controller:v1.5.0@${D1}\n`,
    [FILES.swfs]: `seaweedfs:\n  cosi:\n    image: ghcr.io/acme/objectstorage-controller:v1.4.0@${D2}\n`,
    [FILES.mc]: 'migrationController:\n  image: ghcr.io/acme/migration-controller:latest\n',
    [FILES.installer]: `cozystack:\n  image: ghcr.io/acme/installer:latest@${D1}\n`,
    [FILES.kilo]: `kilo:\n  image: ghcr.io/acme/kilo:v1.0.0@${D1}\n`,
    [FILES.dashboard]: `dashboard:\n  image: ghcr.io/acme/dashboard:v1.0.0@${D1}\n`,
  };
  // Every build has its Dockerfile, so the only build problems are the ones a test adds.
  for (const image of ['bsc', 'migrations', 'objectstorage-controller', 'migration-controller', 'installer', 'kilo', 'dashboard']) {
    for (const dir of ['packages/system/bsc', 'packages/core/platform', 'packages/system/osc', 'packages/extra/swfs', 'packages/system/mc', 'packages/core/installer', 'packages/system/kilo', 'packages/system/dashboard']) {
      files[`${dir}/images/${image}/Dockerfile`] = 'FROM scratch\n';
    }
  }
  return files;
}

export function seedRepo(extra: Record<string, string | null> = {}): TestRepo {
  const repo = makeRepo('pinwatch-lint-');
  repo.commit({ ...seedFiles(), ...extra }, 'seed tree');
  return repo;
}
