import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

// The tests that run `npm start` itself (test/scripts/) build the dashboard when its sources changed:
// a minute of both cores, which starved the timing-sensitive worker tests running beside it (restarted
// workers in test/worker/crash-recovery.test.ts did not come up within its 60 s). They run as a
// second group, after every other file has finished.
const START_TESTS = 'test/scripts/**/*.test.ts';

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
    projects: [
      {
        extends: true,
        test: { name: 'hookline', include: ['test/**/*.test.ts'], exclude: [START_TESTS], sequence: { groupOrder: 0 } },
      },
      { extends: true, test: { name: 'start', include: [START_TESTS], sequence: { groupOrder: 1 } } },
    ],
  },
});
