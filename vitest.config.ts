import { defineConfig } from 'vitest/config';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The tests that run `npm start` itself (test/scripts/) build the dashboard when its sources changed:
// a minute of both cores, which starved the timing-sensitive worker tests running beside it (restarted
// workers in test/worker/crash-recovery.test.ts did not come up within its 60 s). They run as a
// second group, after every other file has finished.
const START_TESTS = 'test/scripts/**/*.test.ts';

// PostgreSQL restarted ten times under two draining workers, asserting that no lease runs out and so
// nothing is sent twice: its premise (outages under a second against 10 s leases) needs the workers'
// event loops not starved by the other files. Beside them (load 4-6) it sent 48 of 25,000 twice once
// on PostgreSQL 15 (not reproduced alone in 16 runs); it runs last, by itself.
const ALONE_TESTS = ['test/worker/restart-no-resend.test.ts'];

// The SQL surface (hookline.send, the pg_net functions and views, the Supabase switch, the installs as
// a non-superuser) and the one table of cases every way in must agree on run a second time on Debian's
// PostgreSQL 15 where this machine has it: users bring 14+, not only the embedded 18. ~10 s more.
// So do the plan tests of the worker's hot statements and of dashboard statements whose plan the two
// planners could choose differently, and migrations that rebuild tables through catalog details the
// versions keep differently (NOT NULL constraints are catalogued from 18 on).
const PG15_TESTS = [
  'test/sql/**/*.test.ts',
  'test/api/ways-in-agree.test.ts',
  'test/api/stats-dead-count.test.ts',
  'test/api/stats-live-count.test.ts',
  'test/api/app-deliveries-plan.test.ts',
  'test/worker/record-results-plan.test.ts',
  'test/worker/first-attempts-written-once.test.ts',
  'test/lib/ids-in-c-collation-migration.test.ts',
  'test/lib/idempotency-keys-collation-migration.test.ts',
  'test/lib/ids-as-uuid-migration.test.ts',
];
const PG15 = existsSync('/usr/lib/postgresql/15/bin/pg_ctl');
if (!PG15) console.warn('note: /usr/lib/postgresql/15/bin/pg_ctl not found; the SQL tests run on PostgreSQL 18 only');

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    // One PostgreSQL per project (the embedded 18, and Debian's 15 for the pg15 project); each test
    // file gets its own database cloned from a migrated template (test/support/database.ts).
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // 2-core machines: more forks only add contention with Postgres and the receivers.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'hookline',
          include: ['test/**/*.test.ts'],
          exclude: [START_TESTS, ...ALONE_TESTS],
          globalSetup: ['test/support/global-setup.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      ...(PG15
        ? [
            {
              extends: true as const,
              test: {
                name: 'pg15',
                include: PG15_TESTS,
                globalSetup: ['test/support/global-setup-pg15.ts'],
                sequence: { groupOrder: 0 },
              },
            },
          ]
        : []),
      {
        extends: true,
        test: {
          name: 'start',
          include: [START_TESTS],
          globalSetup: ['test/support/global-setup.ts'],
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: ALONE_TESTS,
          globalSetup: ['test/support/global-setup.ts'],
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
