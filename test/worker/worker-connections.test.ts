// The worker's connections: settings its hot statements depend on, checked on the real pools.
import { beforeAll, describe, expect, it } from 'vitest';
import { statements } from '../../worker/statements';
import { closeWorkerConnections, createJobConnection, createWorkerConnections } from '../../worker/worker-connections';
import { createTestDatabase, type TestDatabase } from '../support/database';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

describe("the worker's connections", () => {
  it("are named 'hookline worker', so pg_stat_activity tells them from the web's", async () => {
    const connections = createWorkerConnections(db.url, { synchronousCommit: false });
    const jobs = createJobConnection(db.url);
    try {
      for (const pool of [
        connections.pool,
        connections.takePool,
        connections.recordPool,
        connections.maintenancePool,
        jobs,
      ]) {
        const { rows } = await pool.query<{ name: string }>(`SELECT current_setting('application_name') AS name`);
        expect(rows[0]!.name).toBe('hookline worker');
      }
    } finally {
      await Promise.all([closeWorkerConnections(connections), jobs.end()]);
    }
  });

  it('never compile the claim with JIT', async () => {
    // With 25 time partitions the claim's estimate passed jit_above_cost on PostgreSQL 15 built with
    // LLVM: 38 ms of compiling per claim, p50 enqueue -> delivery 41 -> 160 ms in the soak
    // (worker/worker-connections.ts). The embedded 18 has no LLVM (pg_jit_available() is false), so
    // there only the setting is checked; against a server with it (DATABASE_URL), the plan is too,
    // with the threshold at 0 so that any plan would be compiled if JIT were on.
    const connections = createWorkerConnections(db.url, { synchronousCommit: false });
    try {
      for (const pool of [connections.pool, connections.takePool, connections.recordPool]) {
        const { rows } = await pool.query<{ jit: string; available: boolean }>(
          `SELECT current_setting('jit') AS jit, pg_jit_available() AS available`,
        );
        expect(rows[0]!.jit).toBe('off');
        if (!rows[0]!.available) continue;
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query('SET LOCAL jit_above_cost = 0');
          const { rows: plan } = await client.query<{ 'QUERY PLAN': [Record<string, unknown>] }>(
            `EXPLAIN (ANALYZE, FORMAT JSON)\n${statements.claimDeliveries.text}`,
            statements.claimDeliveries.values({
              workerId: 'explain-worker',
              limit: 64,
              leaseSeconds: 30,
              stillOursIds: [],
            }),
          );
          expect(plan[0]!['QUERY PLAN'][0]).not.toHaveProperty('JIT');
        } finally {
          await client.query('ROLLBACK');
          client.release();
        }
      }
    } finally {
      await closeWorkerConnections(connections);
    }
  }, 60_000);
});
