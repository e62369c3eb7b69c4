// The worker's once-a-minute maintenance (worker/maintenance.ts) against a real PostgreSQL where one
// chore cannot finish: time partitions it cannot maintain (an overflow detached by hand that holds
// rows, which maintenance refuses to guess about), or a queue sample that overruns (as it did at 100 M
// deliveries). The other chores still run; sealing plaintext endpoint secrets and making periods ahead
// stand for them here.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_SAMPLE_TIMEOUT_MS, runMaintenance } from '../../worker/maintenance';
import { WorkerMetrics } from '../../worker/metrics';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createApp, createEndpoint } from '../support/fixtures';
import { testLogger } from '../support/worker';

let db: TestDatabase;

beforeAll(async () => {
  process.env.HOOKLINE_ENCRYPTION_KEY = randomBytes(32).toString('base64');
  db = await createTestDatabase();
});

afterAll(() => {
  delete process.env.HOOKLINE_ENCRYPTION_KEY;
});

describe('maintenance with time partitions it cannot maintain', () => {
  it('still runs the chores after that step', async () => {
    const appId = await createApp(db.pool, 'Tleilax');
    await createEndpoint(db.pool, appId, 'https://example.com/sealed-anyway');
    await db.pool.query('ALTER TABLE hookline.messages DETACH PARTITION hookline.messages_overflow');
    await db.pool.query(
      `INSERT INTO hookline.messages_overflow (app_id, event_type, payload) VALUES ($1, 'face.dancer', '{}')`,
      [appId],
    );
    const errors: string[] = [];
    const log = { ...testLogger(), error: (message: string) => void errors.push(message) };
    log.child = () => log;
    await runMaintenance({ pool: db.pool, metrics: new WorkerMetrics(), retention: null, log });

    expect(errors).toEqual(['time partitions could not be maintained; the other chores go on']);
    const { rows } = await db.pool.query<{ secret: string }>('SELECT secret FROM hookline.endpoint_secrets');
    expect(rows.map((row) => row.secret.startsWith('hlenc:'))).toEqual([true]);
  });

  it('cancels a queue sample that overruns in the server, and still maintains the time partitions and the rest', async () => {
    await db.pool.query('DELETE FROM hookline.messages_overflow');
    await db.pool.query(`SELECT hookline.ensure_overflow_partitions()`);
    const appId = await createApp(db.pool, 'Richese');
    await createEndpoint(db.pool, appId, 'https://example.com/sealed-while-sampling');
    const periodsBefore = await periodCount();
    // A delivery waiting, so the sample has a row to write for the app; another transaction holds
    // that row's key uncommitted (this minute's and the next's), so the sample's insert waits for it,
    // as an overlong count would keep counting, and nothing else does.
    const { rows: message } = await db.pool.query<{ id: string }>(
      `INSERT INTO hookline.messages (app_id, event_type, payload, written_by) VALUES ($1, 'spice.sold', '{}', NULL) RETURNING id`,
      [appId],
    );
    await db.pool.query(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count, next_attempt_at, claimable_at)
       SELECT hookline.new_uuid($2::uuid), $1, $2, e.id, 'spice.sold', 'pending', 0, now(), now() FROM hookline.endpoints AS e WHERE e.app_id = $1`,
      [appId, message[0]!.id],
    );
    // The last sample that finished, ten minutes ago: no longer the queue's depth.
    await db.pool.query(
      `INSERT INTO hookline.queue_depth_samples (sampled_at, app_id, state, count)
       VALUES (date_trunc('minute', now()) - interval '10 minutes', $1, 'pending', 7)`,
      [appId],
    );
    const metrics = new WorkerMetrics();
    metrics.queueDepth.set({ state: 'pending' }, 7);
    const holder = await db.pool.connect();
    const errors: { message: string; cause: string }[] = [];
    const log = {
      ...testLogger(),
      error: (message: string, fields?: { error?: Error }) =>
        void errors.push({ message, cause: String(fields?.error?.message) }),
    };
    log.child = () => log;
    try {
      await holder.query('BEGIN');
      await holder.query(
        `INSERT INTO hookline.queue_depth_samples (sampled_at, app_id, state, count)
         SELECT date_trunc('minute', now()) + make_interval(mins => m), $1, 'pending', 0 FROM generate_series(0, 1) AS m`,
        [appId],
      );
      const started = Date.now();
      await runMaintenance({
        pool: db.pool,
        metrics,
        retention: { retentionMs: 7 * 86_400_000, statsRetentionMs: 7 * 86_400_000 },
        log,
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(QUEUE_SAMPLE_TIMEOUT_MS - 100);
      // Cancelled by PostgreSQL, not left running by a client that gave up: nothing waits on the lock.
      const { rows: waiting } = await db.pool.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%queue_depth_samples%' AND wait_event_type = 'Lock'`,
      );
      expect(waiting).toEqual([]);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    expect(errors).toEqual([
      {
        message: 'the queue depth sample failed; the other chores go on',
        cause: `the queue depth sample took longer than ${QUEUE_SAMPLE_TIMEOUT_MS} ms and was cancelled: the queue chart has no point for this minute`,
      },
    ]);
    // The gauge shows no depth rather than the old sample's.
    expect(await metrics.registry.getSingleMetricAsString('hookline_queue_depth')).not.toContain(
      'hookline_queue_depth{',
    );
    // A week of retention: day-long periods made ahead, where the migration left one-minute ones.
    expect(await periodCount()).toBeGreaterThan(periodsBefore);
    const { rows } = await db.pool.query<{ secret: string }>(
      `SELECT s.secret FROM hookline.endpoint_secrets AS s JOIN hookline.endpoints AS e ON e.id = s.endpoint_id WHERE e.app_id = $1`,
      [appId],
    );
    expect(rows.map((row) => row.secret.startsWith('hlenc:'))).toEqual([true]);
  });
});

async function periodCount(): Promise<number> {
  const { rows } = await db.pool.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM hookline.time_partitions('messages') WHERE lower_at IS NOT NULL AND upper_at IS NOT NULL`,
  );
  return rows[0]!.count;
}
