// Test databases are copies of one migrated when the suite started, maybe many minutes ago. Tests of
// the time partitions put them back as a migration leaves them now (the legacy partition, one-minute
// periods for 15 minutes from now, then the overflow), so the clock-relative steps they take hold.
import { expect } from 'vitest';
import type { Pool } from '../../lib/database/pg';

export async function resetTimePartitions(pool: Pool): Promise<void> {
  await pool.query(`DO $$
    DECLARE p record;
    BEGIN
      FOR p IN SELECT t.table_name, q.partition_name
                 FROM hookline.time_partitioned_tables() AS t, hookline.time_partitions(t.table_name) AS q
                WHERE q.lower_at IS NOT NULL LOOP
        EXECUTE format('ALTER TABLE hookline.%I DETACH PARTITION hookline.%I', p.table_name, p.partition_name);
        EXECUTE format('DROP TABLE hookline.%I', p.partition_name);
      END LOOP;
      PERFORM hookline.ensure_overflow_partitions();
    END $$`);
}

/**
 * A DETACH ... CONCURRENTLY cancelled in its second step, while it waits for a transaction that was
 * reading the table: the partition stays listed with its detach pending (the maintenance finishes it).
 */
export async function detachCutShort(pool: Pool, table: string, partition: string): Promise<void> {
  const reader = await pool.connect();
  const detacher = await pool.connect();
  try {
    await reader.query('BEGIN');
    await reader.query(`SELECT count(*) FROM hookline.${table}`);
    const { rows } = await detacher.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const detaching = detacher
      .query(`ALTER TABLE hookline.${table} DETACH PARTITION hookline.${partition} CONCURRENTLY`)
      .then(
        () => null,
        (error: Error) => error,
      );
    for (;;) {
      const { rows: waiting } = await pool.query<{ wait_event_type: string | null }>(
        'SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1',
        [rows[0]!.pid],
      );
      if (waiting[0]?.wait_event_type === 'Lock') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await pool.query('SELECT pg_cancel_backend($1)', [rows[0]!.pid]);
    expect((await detaching)?.message).toMatch(/cancel/);
    await reader.query('COMMIT');
  } finally {
    reader.release();
    detacher.release();
  }
  const { rows: pending } = await pool.query<{ pending: boolean }>(
    'SELECT inhdetachpending AS pending FROM pg_inherits WHERE inhrelid = $1::regclass',
    [`hookline.${partition}`],
  );
  expect(pending[0]?.pending).toBe(true);
}

/** The time-partitioned tables with the prefix of their ids. */
export const TIME_PARTITIONED_TABLES = [
  { name: 'messages', prefix: 'msg' },
  { name: 'deliveries', prefix: 'dlv' },
  { name: 'attempts', prefix: 'atmpt' },
];

/**
 * The starts (12 hex digits of milliseconds) of two periods far ahead of now and of the overflow after
 * them: 2502-06-27 06:31, 06:49 and 07:06 UTC, so ~17-minute periods no clock-made period reaches.
 */
export const STARTS_AHEAD = ['0f4865700000', '0f4865800000', '0f4865900000'];

/**
 * Periods far ahead of now, for a database a migration test writes as an earlier release would: for
 * each table, one period from the end of its newest period (the legacy partition's when its
 * migrations alone made its partitions: the minute after the database was made; an overflow partition
 * the earlier release's functions made is empty and replaced) to the first start, where an event sent
 * during the test lands; periods between consecutive `starts` (STARTS_AHEAD), named `p21000101t0000`,
 * `p21000101t0100`, ... as the migration tests have always named them (a name, not their time); and
 * the overflow from the last. Without the first, a run that crossed that minute had no partition for
 * the event (once in a full suite on a loaded machine).
 */
export async function addPeriodsAhead(pool: Pool, starts: string[]): Promise<void> {
  for (const table of TIME_PARTITIONED_TABLES) {
    const { rows: bounds } = await pool.query<{ partition: string; lower: string | null; upper: string | null }>(
      `SELECT c.relname AS partition,
              substring(pg_get_expr(c.relpartbound, c.oid) FROM 'FROM \\(''([^'']+)''\\)') AS lower,
              substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \\(''([^'']+)''\\)') AS upper
         FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhrelid
        WHERE i.inhparent = $1::regclass`,
      [`hookline.${table.name}`],
    );
    const overflow = bounds.find((bound) => bound.upper === null);
    if (overflow !== undefined) {
      await pool.query(`ALTER TABLE hookline.${table.name} DETACH PARTITION hookline.${overflow.partition}`);
      await pool.query(`DROP TABLE hookline.${overflow.partition}`);
    }
    const from =
      overflow?.lower ??
      bounds
        .map((bound) => bound.upper!)
        .sort()
        .at(-1)!;
    await pool.query(
      `CREATE TABLE hookline.${table.name}_until_ahead PARTITION OF hookline.${table.name}
         FOR VALUES FROM ('${from}') TO ('${table.prefix}_${starts[0]}')`,
    );
    for (let index = 0; index + 1 < starts.length; index++) {
      await pool.query(
        `CREATE TABLE hookline.${table.name}_p21000101t0${index}00 PARTITION OF hookline.${table.name}
           FOR VALUES FROM ('${table.prefix}_${starts[index]}') TO ('${table.prefix}_${starts[index + 1]}')`,
      );
    }
    await pool.query(
      `CREATE TABLE hookline.${table.name}_overflow PARTITION OF hookline.${table.name}
         FOR VALUES FROM ('${table.prefix}_${starts.at(-1)}') TO (MAXVALUE)`,
    );
  }
}
