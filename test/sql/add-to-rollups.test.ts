// hookline.add_to_rollups (migration 20261124171000_rollups_from_minute_groups: one grouping per flush,
// the coarser rollups summed from it) writes the same rows as the version it replaced (migration
// 20261124152000_rollup_shards: four groupings of every attempt), for attempts across minutes, an hour
// boundary, two apps and endpoints, failures with and without a status code, and a second flush that
// adds to the rows the first wrote.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  const migration = readFileSync(
    resolve(import.meta.dirname, '../../prisma/migrations/20261124152000_rollup_shards/migration.sql'),
    'utf8',
  );
  const start = migration.indexOf('CREATE FUNCTION hookline.add_to_rollups(');
  const end = migration.indexOf('$$;', start) + '$$;'.length;
  // Its body names its parameters by the function's name (add_to_rollups.shard), so every mention changes.
  const before = migration.slice(start, end).replaceAll('add_to_rollups', 'add_to_rollups_before');
  await db.pool.query(before);
});

// [started_at, app, endpoint, duration ms, status code, error class]
const attempts: [string, string, string, number, number | null, string | null][] = [
  ['2026-11-24T10:58:59.900Z', 'app_a', 'ep_1', 12.5, 200, null],
  ['2026-11-24T10:59:30.000Z', 'app_a', 'ep_1', 3.25, 200, null],
  ['2026-11-24T10:59:31.000Z', 'app_a', 'ep_2', 250, 503, 'http_5xx'],
  ['2026-11-24T10:59:59.999Z', 'app_a', 'ep_2', 30_000, null, 'timeout'],
  ['2026-11-24T11:00:00.000Z', 'app_a', 'ep_1', 1, 200, null],
  ['2026-11-24T11:00:00.001Z', 'app_a', 'ep_2', 0.4, null, 'connection_refused'],
  ['2026-11-24T11:00:10.000Z', 'app_b', 'ep_3', 75, 200, null],
  ['2026-11-24T11:00:11.000Z', 'app_b', 'ep_3', 5000, 200, null],
  ['2026-11-24T11:01:05.000Z', 'app_b', 'ep_3', 42.125, 404, 'http_4xx'],
  ['2026-11-24T11:01:06.000Z', 'app_a', 'ep_1', 10, 200, null],
];

const TABLES = {
  stats_minutely: 'minute, app_id, endpoint_id',
  stats_hourly: 'hour, app_id, endpoint_id',
  stats_app_minutely: 'minute, app_id',
  stats_app_hourly: 'hour, app_id',
};

/** What `fn` writes for the attempts (flushed twice, in two halves and then all again), rolled back. */
async function rollupsWrittenBy(fn: string): Promise<Record<string, unknown[]>> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    const flush = (rows: typeof attempts) =>
      client.query<{ written: number }>(
        `SELECT hookline.${fn}(3::smallint, $1::timestamptz[], $2::text[], $3::text[], $4::float8[], $5::int[], $6::text[])
           AS written`,
        [0, 1, 2, 3, 4, 5].map((column) => rows.map((row) => row[column])),
      );
    const written = [
      (await flush(attempts.slice(0, 5))).rows[0]!.written,
      (await flush(attempts.slice(5))).rows[0]!.written,
      (await flush(attempts)).rows[0]!.written,
    ];
    const tables: Record<string, unknown[]> = { written };
    for (const [table, keys] of Object.entries(TABLES)) {
      const { rows } = await client.query(
        `SELECT ${keys}, outcome, error_class, status_code, shard, attempts::int AS attempts,
                round(duration_ms_sum::numeric, 6) AS duration_ms_sum, latency_buckets::int[] AS buckets
           FROM hookline.${table} ORDER BY ${keys}, outcome, error_class, status_code`,
      );
      tables[table] = rows;
    }
    return tables;
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

describe('hookline.add_to_rollups', () => {
  it('writes the same four rollups as the version that grouped every attempt four times', async () => {
    const now = await rollupsWrittenBy('add_to_rollups');
    expect(now).toEqual(await rollupsWrittenBy('add_to_rollups_before'));
    // Something to compare: minutes on both sides of the hour, failures without a status code.
    expect((now.stats_minutely as unknown[]).length).toBeGreaterThan(6);
    expect((now.stats_app_hourly as { hour: Date }[]).map((row) => row.hour.toISOString())).toContain(
      '2026-11-24T10:00:00.000Z',
    );
  });
});
