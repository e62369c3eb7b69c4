// What retention costs at the rate the drain delivers: after the largest one-worker drain, every
// delivery it recorded is past a retention of 0 and goes, the way a worker's maintenance removes them
// (worker/sql/delete-expired-deliveries.sql and delete-orphan-messages.sql, batches of 10,000, each its
// own transaction). Reported: deliveries deleted per second, the longest batch (how long one DELETE
// holds its locks: the "storm" to avoid), and the WAL written per deleted delivery with its message.
import type pg from 'pg';
import { sql } from '../worker/statements';
import { walBytesSince, walPosition } from './case-measurement';

export interface RetentionCost {
  deleted: number;
  deletedPerSecond: number;
  longestBatchMs: number;
  walBytesPerDelivery: number;
}

const BATCH = 10_000;

export async function measureRetention(client: pg.ClientBase): Promise<RetentionCost> {
  const walBefore = await walPosition(client);
  const started = performance.now();
  let deleted = 0;
  let longestBatchMs = 0;
  for (const statement of [sql.deleteExpiredDeliveries, sql.deleteOrphanMessages]) {
    for (;;) {
      const batchStarted = performance.now();
      const { rowCount } = await client.query(statement, [0, BATCH]);
      longestBatchMs = Math.max(longestBatchMs, performance.now() - batchStarted);
      if (statement === sql.deleteExpiredDeliveries) deleted += rowCount ?? 0;
      if ((rowCount ?? 0) < BATCH) break;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    deleted,
    deletedPerSecond: Math.round(deleted / seconds),
    longestBatchMs: Math.round(longestBatchMs),
    walBytesPerDelivery: Math.round((await walBytesSince(client, walBefore)) / Math.max(1, deleted)),
  };
}
