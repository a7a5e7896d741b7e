import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // git, docker-registry, chromium, openssl: missing ones fail the run at once with the install line
    globalSetup: ['test/support/prerequisites.mjs'],
  },
});
