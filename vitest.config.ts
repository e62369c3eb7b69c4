import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts'],
    // One embedded PostgreSQL for the run; each test file gets its own database cloned from a
    // migrated template (test/support/database.ts).
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // 2-core machines: more forks only add contention with Postgres and the receivers.
    pool: 'forks',
    maxWorkers: 2,
  },
});
