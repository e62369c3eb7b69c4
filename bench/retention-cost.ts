// What retention costs at the rate the drain delivers: after the largest one-worker drain, every
// delivery it recorded is past retention, and the worker's maintenance (worker/time-partitions.ts)
// drops the periods that hold them, as it would once they aged out (its clock moved four days on).
// Reported: deliveries dropped per second, how long the drop took (DETACH ... CONCURRENTLY and DROP:
// no statement of a producer waits for it), and the WAL written per dropped delivery with its message.
// Before the time partitions (issue 22) this was batched DELETEs: ~23-27k deliveries/s, and WAL from
// ~136 to 200-255 MB a minute in the 30-minute soak.
import type pg from 'pg';
import { createPool } from '../lib/database/pg';
import { maintainTimePartitions } from '../worker/time-partitions';
import { walBytesSince, walPosition } from './case-measurement';

export interface RetentionCost {
  deleted: number;
  deletedPerSecond: number;
  /** The whole maintenance run that dropped every period (it was the longest DELETE batch before them). */
  dropMs: number;
  walBytesPerDelivery: number;
  periodsDropped: number;
}

const DAY = 86_400_000;

export async function measureRetention(client: pg.ClientBase, url: string): Promise<RetentionCost> {
  const { rows } = await client.query<{ count: number }>('SELECT count(*)::int AS count FROM hookline.deliveries');
  const deleted = rows[0]!.count;
  const walBefore = await walPosition(client);
  const pool = createPool(url, { max: 1 });
  try {
    const started = performance.now();
    const result = await maintainTimePartitions(pool, {
      retentionMs: 0,
      periodMs: DAY,
      now: () => Date.now() + 4 * DAY,
    });
    const ms = performance.now() - started;
    const { rows: left } = await client.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM hookline.deliveries',
    );
    if (left[0]!.count > 0)
      throw new Error(`retention left ${left[0]!.count} deliveries (held: ${result?.held.join(', ')})`);
    return {
      deleted,
      deletedPerSecond: Math.round(deleted / (ms / 1000)),
      dropMs: Math.round(ms),
      walBytesPerDelivery: Math.round((await walBytesSince(client, walBefore)) / Math.max(1, deleted)),
      periodsDropped: result?.dropped.length ?? 0,
    };
  } finally {
    await pool.end();
  }
}
