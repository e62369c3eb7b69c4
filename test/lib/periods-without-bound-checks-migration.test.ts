// Migration 20261202090000_periods_without_bound_checks: time partitions stop carrying a CHECK that
// restates their bounds, which every insert into them paid for (prisma/functions/time-partitions.sql).
// This carries forward a database whose periods were made as the release before made them (each with
// <partition>_bounds; deliveries and attempts with _same_time; an overflow with an _upper left by a
// conversion cut short; a period detached by retention and not yet dropped; a DETACH ... CONCURRENTLY
// cut short), and checks that only the bound checks of attached partitions went.
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../lib/database/migrate';
import { createPool, type Pool } from '../../lib/database/pg';
import { databaseBefore } from '../support/database-before';
import { maintainTimePartitions } from '../../worker/time-partitions';
import { detachCutShort } from '../support/time-partitions';

const MIGRATION = '20261202090000_periods_without_bound_checks';
let dropDatabase: (() => Promise<void>) | undefined;
let pool: Pool | undefined;

afterAll(async () => {
  await pool?.end();
  await dropDatabase?.();
});

const TABLES = [
  { name: 'messages', prefix: 'msg', sameTime: null },
  { name: 'deliveries', prefix: 'dlv', sameTime: 'substr(id, 5, 12) = substr(message_id, 5, 12)' },
  { name: 'attempts', prefix: 'atmpt', sameTime: 'substr(id, 7, 12) = substr(delivery_id, 5, 12)' },
];

/** A partition as add_time_partition made it before this migration: its bounds stated by a CHECK. */
async function periodAsBefore(table: (typeof TABLES)[number], partition: string, lower: string, upper: string | null) {
  const lowerId = `${table.prefix}_${lower}`;
  const upperId = upper === null ? null : `${table.prefix}_${upper}`;
  await pool!.query(
    `CREATE TABLE hookline.${partition} (LIKE hookline.${table.name} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`,
  );
  await pool!.query(
    `ALTER TABLE hookline.${partition} ADD CONSTRAINT ${partition}_bounds
       CHECK (id >= '${lowerId}'${upperId === null ? '' : ` AND id < '${upperId}'`})`,
  );
  if (table.sameTime) {
    await pool!.query(
      `ALTER TABLE hookline.${partition} ADD CONSTRAINT ${partition}_same_time CHECK (${table.sameTime})`,
    );
  }
  await pool!.query(
    `ALTER TABLE hookline.${table.name} ATTACH PARTITION hookline.${partition}
       FOR VALUES FROM ('${lowerId}') TO (${upperId === null ? 'MAXVALUE' : `'${upperId}'`})`,
  );
}

/** The partition's own checks (a detached one's inherited checks become its own, named as the parent's). */
async function checksOf(partition: string): Promise<string[]> {
  const { rows } = await pool!.query<{ conname: string }>(
    `SELECT conname FROM pg_constraint
      WHERE conrelid = $1::regclass AND contype = 'c' AND conislocal AND starts_with(conname, $2) ORDER BY 1`,
    [`hookline.${partition}`, `${partition}_`],
  );
  return rows.map((row) => row.conname);
}

describe(`migration ${MIGRATION}`, () => {
  it('drops the checks that restate an attached period’s bounds, and keeps every other', async () => {
    const before = await databaseBefore(MIGRATION);
    dropDatabase = before.drop;
    pool = createPool(before.url, { max: 4 });
    // Three periods far ahead of now (ids of 2100), and an overflow after them.
    const starts = ['0f4865700000', '0f4865800000', '0f4865900000', '0f4865a00000', '0f4865b00000'];
    for (const table of TABLES) {
      await periodAsBefore(table, `${table.name}_p21000101t0000`, starts[0]!, starts[1]!);
      await periodAsBefore(table, `${table.name}_p21000101t0100`, starts[1]!, starts[2]!);
      await periodAsBefore(table, `${table.name}_p21000101t0200`, starts[2]!, starts[3]!);
      await periodAsBefore(table, `${table.name}_overflow`, starts[3]!, null);
      // A conversion of the overflow into a period that stopped after validating its upper bound.
      await pool.query(
        `ALTER TABLE hookline.${table.name}_overflow ADD CONSTRAINT ${table.name}_overflow_upper
           CHECK (id < '${table.prefix}_${starts[4]}')`,
      );
      // Retention detached the second period and stopped before dropping it.
      await pool.query(`ALTER TABLE hookline.${table.name} DETACH PARTITION hookline.${table.name}_p21000101t0100`);
    }
    // And retention's DETACH ... CONCURRENTLY of the third period's messages was cut short while it
    // waited: the partition is still listed, its detach pending. That DETACH added no CHECK of its
    // own (_bounds implied the partition's bounds), so _bounds is all that states them.
    await detachCutShort(pool, 'messages', 'messages_p21000101t0200');

    await migrate(before.url);

    for (const table of TABLES) {
      const kept = table.sameTime ? (partition: string) => [`${partition}_same_time`] : () => [];
      expect(await checksOf(`${table.name}_p21000101t0000`)).toEqual(kept(`${table.name}_p21000101t0000`));
      expect(await checksOf(`${table.name}_overflow`)).toEqual(kept(`${table.name}_overflow`));
      const third = `${table.name}_p21000101t0200`;
      expect(await checksOf(third)).toEqual(table.name === 'messages' ? [`${third}_bounds`] : kept(third));
      // The detached period keeps its bounds: the maintenance attaches it back (or drops it) by them.
      expect(await checksOf(`${table.name}_p21000101t0100`)).toEqual(
        [`${table.name}_p21000101t0100_bounds`, ...kept(`${table.name}_p21000101t0100`)].sort(),
      );
    }
    // The inherited checks stay on every partition: a delivery still may not be dead without an error.
    const { rows: inherited } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_constraint
        WHERE conrelid = 'hookline.deliveries_p21000101t0000'::regclass AND contype = 'c' AND NOT conislocal`,
    );
    expect(inherited[0]!.n).toBeGreaterThanOrEqual(4);
    // Rows still go where their ids say, and the same-time rule still holds a delivery to its message
    // (ids stored as uuid since the later migration 20261208090000_ids_as_uuid: 32 hex digits).
    const messageId = `${starts[0]}0000000000000000000a`;
    await pool.query(
      `INSERT INTO hookline.messages (id, app_id, event_type, payload) VALUES ($1, 'app_x', 'order.placed', '{}')`,
      [messageId],
    );
    const { rows: routed } = await pool.query<{ name: string }>(
      `SELECT tableoid::regclass::text AS name FROM hookline.messages WHERE id = $1`,
      [messageId],
    );
    expect(routed[0]!.name).toBe('hookline.messages_p21000101t0000');
    await expect(
      pool.query(
        `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state)
         VALUES ($1, 'app_x', $2, 'ep_x', 'order.placed', 'succeeded')`,
        [`${starts[0]!.slice(0, 11)}1${'0'.repeat(19)}b`, messageId],
      ),
    ).rejects.toThrow(/deliveries_p21000101t0000_same_time/);

    // This release's maintenance finishes both from the bounds they kept: the pending detach, then the
    // periods whose tables are not all attached. Nothing of them was left to send, so both go whole.
    const result = await maintainTimePartitions(pool, { retentionMs: null, periodMs: 60_000 });
    expect(result?.dropped.sort()).toEqual(['p21000101t0100', 'p21000101t0200']);
    for (const table of TABLES) {
      const { rows: gone } = await pool.query<{ gone: boolean }>(
        `SELECT to_regclass($1) IS NULL AND to_regclass($2) IS NULL AS gone`,
        [`hookline.${table.name}_p21000101t0100`, `hookline.${table.name}_p21000101t0200`],
      );
      expect(gone[0]!.gone).toBe(true);
    }
  });
});
