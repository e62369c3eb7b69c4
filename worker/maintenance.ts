// Once-a-minute chores that need one worker, not all of them: the queue depth sample and retention.
// Each runs inside a transaction holding a transaction-level advisory lock taken with try (never
// waiting), so with N workers one does the work and the others skip that minute.
import type { Logger } from '../lib/log';
import type { Pool } from '../lib/pg';
import { sql } from './sql';

// Arbitrary constants, the same in every Hookline process.
const QUEUE_DEPTH_LOCK = 72_616_917_341;
const RETENTION_LOCK = 72_616_917_342;

export interface RetentionOptions {
  /** Finished deliveries and orphaned messages older than this are deleted. */
  retentionMs: number;
  /** Rollups and queue depth samples older than this are deleted. */
  statsRetentionMs: number;
  /** Rows per DELETE: ~10k rows is a transaction of tens of milliseconds. */
  batchSize?: number;
  /** Batches per run, so one run stays bounded even after a long pause; the rest waits a minute. */
  maxBatches?: number;
}

export async function withTryLock<T>(pool: Pool, key: number, work: (query: Pool['query']) => Promise<T>): Promise<T | null> {
  const client = await pool.connect();
  // A checked-out client has no error listener (the pool's is only on idle ones), and the connection
  // dying while we hold it (Postgres restarting during a retention run) is emitted as an 'error' event:
  // unhandled, that ended the worker (test/worker/postgres-restart.test.ts). The failed query reports
  // the error; this keeps the event from killing the process, and the client is then discarded.
  let lost: Error | undefined;
  const onError = (error: Error) => (lost = error);
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [key]);
    if (!rows[0]?.locked) {
      await client.query('ROLLBACK');
      return null;
    }
    const result = await work(client.query.bind(client) as Pool['query']);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(lost);
  }
}

/** Writes this minute's sample unless another worker did. Returns the rows written, or null if skipped. */
export async function sampleQueueDepth(pool: Pool): Promise<{ state: string; count: number }[] | null> {
  return withTryLock(pool, QUEUE_DEPTH_LOCK, async (query) => {
    const { rows } = await query<{ state: string; count: number }>(sql.sampleQueueDepth);
    return rows;
  });
}

export interface RetentionResult {
  deliveries: number;
  messages: number;
  rollups: number;
  samples: number;
}

/** Deletes what retention allows; null when another worker holds the retention lock. */
export async function applyRetention(pool: Pool, options: RetentionOptions): Promise<RetentionResult | null> {
  const batchSize = options.batchSize ?? 10_000;
  const maxBatches = options.maxBatches ?? 10;
  const result: RetentionResult = { deliveries: 0, messages: 0, rollups: 0, samples: 0 };
  // The lock only decides who runs; each batch below is its own short transaction on the pool, so
  // retention never holds row locks for long.
  const ran = await withTryLock(pool, RETENTION_LOCK, async () => {
    for (let batch = 0; batch < maxBatches; batch++) {
      const deleted = await pool.query(sql.deleteExpiredDeliveries, [options.retentionMs, batchSize]);
      result.deliveries += deleted.rowCount ?? 0;
      if ((deleted.rowCount ?? 0) < batchSize) break;
    }
    for (let batch = 0; batch < maxBatches; batch++) {
      const deleted = await pool.query(sql.deleteOrphanMessages, [options.retentionMs, batchSize]);
      result.messages += deleted.rowCount ?? 0;
      if ((deleted.rowCount ?? 0) < batchSize) break;
    }
    const { rows } = await pool.query<{ rollups: number; samples: number }>(sql.deleteOldStats, [options.statsRetentionMs]);
    result.rollups = rows[0]?.rollups ?? 0;
    result.samples = rows[0]?.samples ?? 0;
    return true;
  });
  return ran ? result : null;
}

/** Current totals for the metrics gauges: the latest queue depth sample and endpoints per circuit state. */
export async function readGauges(
  pool: Pool,
): Promise<{ queue: { state: string; count: number }[]; circuits: { state: string; count: number }[] }> {
  const [queue, circuits] = await Promise.all([
    pool.query<{ state: string; count: number }>(
      `SELECT state, sum(count)::bigint AS count FROM hookline.queue_depth_samples
        WHERE sampled_at = (SELECT max(sampled_at) FROM hookline.queue_depth_samples) GROUP BY state`,
    ),
    pool.query<{ state: string; count: number }>(
      `SELECT circuit_state AS state, count(*) AS count FROM hookline.endpoints GROUP BY circuit_state`,
    ),
  ]);
  return { queue: queue.rows, circuits: circuits.rows };
}

export function logRetention(log: Logger, result: RetentionResult | null): void {
  if (result && (result.deliveries || result.messages || result.rollups || result.samples)) {
    log.info('retention removed old rows', { ...result });
  }
}
