import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

// Tests that run the whole server (Next.js + worker) and build the dashboard first when its build is
// missing or stale: about a minute of both cores on a clean clone. They run after every other file,
// so that build never competes with the timing-sensitive worker tests (leases, kills, freezes).
const SERVER_TESTS = ['test/scripts/log-secrets.test.ts', 'test/scripts/compiled-start.test.ts'];

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    // One embedded PostgreSQL for the run; each test file gets its own database cloned from a
    // migrated template (test/support/database.ts).
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // 2-core machines: more forks only add contention with Postgres and the receivers.
    pool: 'forks',
    maxWorkers: 2,
    // extends: each project takes the settings above (and runs the global setup for itself).
    projects: [
      {
        extends: true,
        test: { name: 'main', include: ['test/**/*.test.ts'], exclude: SERVER_TESTS, sequence: { groupOrder: 0 } },
      },
      { extends: true, test: { name: 'server', include: SERVER_TESTS, sequence: { groupOrder: 1 } } },
    ],
  },
});
