// The worker's claims, fan-outs and results commit without waiting for the WAL flush unless
// HOOKLINE_WORKER_SYNCHRONOUS_COMMIT says otherwise (worker/worker-connections.ts says why that loses
// nothing accepted); maintenance and everything else keep the database's setting.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/runtime/env';
import { workerOptionsFromConfig } from '../../worker/start-worker';
import { closeWorkerConnections, createWorkerConnections } from '../../worker/worker-connections';
import { createTestDatabase, type TestDatabase } from '../support/database';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  // The test PostgreSQL runs without durability (test/support/global-setup.ts); this database asks
  // for it, as a production one would.
  await db.pool.query(`ALTER DATABASE "${db.name}" SET synchronous_commit = on`);
});

async function commitSettings(synchronousCommit: boolean) {
  const connections = createWorkerConnections(db.url, { synchronousCommit });
  const show = async (pool: typeof connections.pool) =>
    (await pool.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit;
  try {
    return {
      claims: await show(connections.takePool),
      leases: await show(connections.pool),
      results: await show(connections.recordPool),
      maintenance: await show(connections.maintenancePool),
    };
  } finally {
    await closeWorkerConnections(connections);
  }
}

describe("the worker's commits", () => {
  it('do not wait for the WAL flush by default', async () => {
    expect(workerOptionsFromConfig(loadConfig({}), db.url).synchronousCommit).toBe(false);
    expect(await commitSettings(false)).toEqual({ claims: 'off', leases: 'off', results: 'off', maintenance: 'on' });
  });

  it("keep the database's setting with HOOKLINE_WORKER_SYNCHRONOUS_COMMIT=true", async () => {
    const config = loadConfig({ HOOKLINE_WORKER_SYNCHRONOUS_COMMIT: 'true' });
    expect(workerOptionsFromConfig(config, db.url).synchronousCommit).toBe(true);
    expect(await commitSettings(true)).toEqual({ claims: 'on', leases: 'on', results: 'on', maintenance: 'on' });
  });
});
