// Migration 20261207100000_deliveries_pages_filled: deliveries' periods stop keeping half of each page
// free. This carries forward a database whose periods were made at fillfactor 50, as the release before
// made them, and checks that afterwards none keeps that room, a period made later neither, and a
// period's rows fill its pages.
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../lib/database/migrate';
import { createPool, type Pool } from '../../lib/database/pg';
import { databaseBefore } from '../support/database-before';

const MIGRATION = '20261207100000_deliveries_pages_filled';
let dropDatabase: (() => Promise<void>) | undefined;
let pool: Pool | undefined;

afterAll(async () => {
  await pool?.end();
  await dropDatabase?.();
});

/** Deliveries' tables (periods and the legacy one) with a fillfactor of their own. */
async function withFillfactor(): Promise<string[]> {
  const { rows } = await pool!.query<{ name: string }>(
    `SELECT c.relname || ' ' || array_to_string(c.reloptions, ',') AS name FROM pg_class AS c
      WHERE c.relnamespace = 'hookline'::regnamespace AND c.relkind = 'r' AND c.relname LIKE 'deliveries\\_%'
        AND c.reloptions IS NOT NULL ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

describe(`migration ${MIGRATION}`, () => {
  it('fills the pages of every period of deliveries, those made before it and after', async () => {
    const before = await databaseBefore(MIGRATION);
    dropDatabase = before.drop;
    pool = createPool(before.url, { max: 4 });
    // Two periods far ahead made as the release before's maintenance made them (prisma/functions/
    // time-partitions.sql then), beside the legacy table (the deliveries table from before time
    // partitions, at fillfactor 50 since migration 20261124110000_hot_first_attempts).
    for (const [name, lower, upper] of [
      ['p21000101t0000', '0f4865700000', '0f4865800000'],
      ['p21000101t0100', '0f4865800000', '0f4865900000'],
    ]) {
      await pool.query(
        `CREATE TABLE hookline.deliveries_${name} (LIKE hookline.deliveries INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
           WITH (fillfactor = 50)`,
      );
      await pool.query(
        `ALTER TABLE hookline.deliveries ATTACH PARTITION hookline.deliveries_${name} FOR VALUES FROM ('dlv_${lower}') TO ('dlv_${upper}')`,
      );
    }
    const kept = await withFillfactor();
    expect(kept).toHaveLength(3);
    expect(kept.every((name) => name.endsWith(' fillfactor=50'))).toBe(true);

    await migrate(before.url);
    expect(await withFillfactor()).toEqual([]);

    // A period made now, as the maintenance makes them (an hour of 2100), fills its pages too: 2,000
    // rows of a bench delivery's width take about 65 pages, where half-full pages took about 133.
    await pool.query(
      `SELECT hookline.add_time_partition('deliveries', '2100-01-01T02:00:00Z', '2100-01-01T03:00:00Z')`,
    );
    expect(await withFillfactor()).toEqual([]);
    await pool.query(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
                                        last_attempt_at, last_status_code, last_duration_ms)
       SELECT hookline.new_uuid(m), 'app_' || repeat('a', 32), m, 'ep_' || repeat('b', 32), 'bench.e0',
              'succeeded', 1, now(), 200, 1.5
         FROM (SELECT hookline.new_uuid(hookline.id_at('', '2100-01-01T02:30:00Z')::uuid) AS m
                 FROM generate_series(1, 2000)) AS g`,
    );
    const { rows } = await pool.query<{ pages: number }>(
      `SELECT pg_relation_size('hookline.deliveries_p21000101t0200') / 8192 AS pages`,
    );
    expect(Number(rows[0]!.pages)).toBeLessThan(80);
  });
});
