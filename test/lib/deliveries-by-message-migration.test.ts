// Migration 20261201090000_deliveries_by_message_through_id drops deliveries_message_id_idx: a
// message's deliveries are found through deliveries_pkey, within the message's millisecond, since a
// delivery's id carries its message's time. Not in the legacy partition (the tables as they were before
// migration 20261126130000_time_partitions), whose delivery ids carry their own time: it keeps an
// index on message_id, and a lookup for a message of its time goes there. This carries a database
// written before time partitions forward and finds both kinds through the code the API runs.
import { afterAll, describe, expect, it } from 'vitest';
import { storedMessageId } from '../../lib/database/ids';
import { migrate } from '../../lib/database/migrate';
import { createPool, type Pool } from '../../lib/database/pg';
import { getMessage } from '../../lib/domain/messages/get-message';
import { countMessageOutcomes } from '../../lib/domain/messages/count-message-outcomes';
import { listDeliveries } from '../../lib/domain/deliveries/list-deliveries';
import { createTestDatabase } from '../support/database';
import { databaseBefore } from '../support/database-before';

const BEFORE_PARTITIONS = '20261126130000_time_partitions';
const MIGRATION = '20261201090000_deliveries_by_message_through_id';
let dropDatabase: (() => Promise<void>) | undefined;
let pool: Pool | undefined;

afterAll(async () => {
  await pool?.end();
  await dropDatabase?.();
});

/** The partitions (or tables) a plan reads, and the indexes it reads them through. */
function scans(plan: unknown): { relations: string[]; indexes: string[] } {
  const relations: string[] = [];
  const indexes: string[] = [];
  const walk = (node: Record<string, unknown>) => {
    if (typeof node['Relation Name'] === 'string') relations.push(node['Relation Name']);
    if (typeof node['Index Name'] === 'string') indexes.push(node['Index Name']);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk((plan as { Plan: Record<string, unknown> }[])[0]!.Plan);
  return { relations, indexes };
}

describe(`migration ${MIGRATION}`, () => {
  it('finds the deliveries of legacy and new messages alike, each in one partition', async () => {
    const before = await databaseBefore(BEFORE_PARTITIONS);
    dropDatabase = before.drop;
    pool = createPool(before.url, { max: 3 });

    await pool.query(`INSERT INTO hookline.apps (id, name) VALUES ('app_old', 'Old')`);
    await pool.query(`INSERT INTO hookline.event_types (app_id, name) VALUES ('app_old', 'order.placed')`);
    const { rows: endpoints } = await pool.query<{ id: string }>(
      `INSERT INTO hookline.endpoints (app_id, url) VALUES ('app_old', 'http://127.0.0.1:9/old') RETURNING id`,
    );
    const endpointId = endpoints[0]!.id;
    const send = async (payload: string) =>
      (await pool!.query<{ id: string }>(`SELECT hookline.send('app_old', 'order.placed', $1::jsonb) AS id`, [payload]))
        .rows[0]!.id;

    // As the release before time partitions wrote them: the delivery's id made when the fan-out ran, a
    // few milliseconds after its message, so it does not start with the message's time.
    const legacy = await send('{"n": 1}');
    await pool.query('DELETE FROM hookline.fanout_queue');
    await pool.query('SELECT pg_sleep(0.01)');
    const { rows: legacyRows } = await pool.query<{ id: string }>(
      `INSERT INTO hookline.deliveries (app_id, message_id, endpoint_id, event_type, state, attempt_count, last_status_code)
       VALUES ('app_old', $1, $2, 'order.placed', 'succeeded', 1, 200) RETURNING id`,
      [legacy, endpointId],
    );
    const legacyDelivery = legacyRows[0]!.id;
    expect(legacyDelivery.slice(4, 16)).not.toBe(legacy.slice(4, 16));

    const { applied } = await migrate(before.url);
    expect(applied).toEqual(expect.arrayContaining([BEFORE_PARTITIONS, MIGRATION]));

    // The index is gone from every partition but the legacy one, which has one of its own.
    const { rows: indexes } = await pool.query<{ table: string; index: string }>(
      `SELECT t.relname AS table, i.relname AS index
         FROM pg_index AS x
         JOIN pg_class AS i ON i.oid = x.indexrelid
         JOIN pg_class AS t ON t.oid = x.indrelid
        WHERE x.indkey::text = (SELECT attnum::text FROM pg_attribute
                                 WHERE attrelid = 'hookline.deliveries'::regclass AND attname = 'message_id')
          AND (t.oid = 'hookline.deliveries'::regclass
               OR t.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'hookline.deliveries'::regclass))`,
    );
    expect(indexes).toEqual([
      { table: expect.stringMatching(/^deliveries_before_/), index: 'deliveries_legacy_message_id_idx' },
    ]);
    // hookline.legacy_ids_end() is where the legacy partition ends.
    const { rows: ends } = await pool.query<{ written: string; partition: string }>(
      `SELECT hookline.legacy_ids_end() AS written,
              (SELECT substr(hookline.id_at('dlv', upper_at), 5) FROM hookline.time_partitions('deliveries')
                WHERE lower_at IS NULL) AS partition`,
    );
    expect(ends[0]!.written).toBe(ends[0]!.partition);

    // A message of a time after the legacy partition (it runs to the minute after the migration, so
    // one sent now would still be legacy: this one's id is made two minutes on), fanned out as the
    // worker does: its delivery's id carries its time.
    const { rows: freshMessages } = await pool.query<{ id: string }>(
      `INSERT INTO hookline.messages (id, app_id, event_type, payload)
       VALUES (hookline.new_uuid(hookline.id_at('', now() + interval '2 minutes')::uuid), 'app_old', 'order.placed', '{"n": 2}')
       RETURNING hookline.public_id('msg', id) AS id`,
    );
    const fresh = freshMessages[0]!.id;
    const { rows: freshRows } = await pool.query<{ id: string }>(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
                                        last_status_code, last_error_class)
       VALUES (hookline.new_uuid(hookline.uuid_of($1)), 'app_old', hookline.uuid_of($1), $2, 'order.placed', 'dead', 3, 503,
               'http_5xx')
       RETURNING hookline.public_id('dlv', id) AS id`,
      [fresh, endpointId],
    );
    const freshDelivery = freshRows[0]!.id;

    // Through the API's own code: the message page, the list's outcome counts, the explorer's filter.
    process.env.DATABASE_URL = before.url;
    const legacyPage = await getMessage({ appId: 'app_old', messageId: legacy });
    expect(legacyPage.deliveries.map((d) => d.id)).toEqual([legacyDelivery]);
    const freshPage = await getMessage({ appId: 'app_old', messageId: fresh });
    expect(freshPage.deliveries.map((d) => d.id)).toEqual([freshDelivery]);
    const outcomes = await countMessageOutcomes('app_old', [legacy, fresh]);
    expect(outcomes.get(legacy)).toMatchObject({ deliveries: 1, succeeded: 1 });
    expect(outcomes.get(fresh)).toMatchObject({ deliveries: 1, dead: 1 });
    for (const [messageId, deliveryId] of [
      [legacy, legacyDelivery],
      [fresh, freshDelivery],
    ]) {
      const page = await listDeliveries({ appId: 'app_old', filter: { messageId }, limit: 10 });
      expect(page.data.map((d) => d.id)).toEqual([deliveryId]);
    }

    // Each lookup reads one partition: the message's period through its primary key, or the legacy
    // partition through its own index (sequential scans off: these tables hold a row each).
    const plan = async (messageId: string) => {
      const client = await pool!.connect();
      try {
        await client.query('BEGIN');
        await client.query('SET LOCAL enable_seqscan = off');
        const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(
          `EXPLAIN (FORMAT JSON) SELECT * FROM hookline.deliveries AS d
            WHERE d.message_id = $1::uuid
              AND d.id >= hookline.delivery_ids_from($1::uuid) AND d.id < hookline.delivery_ids_before($1::uuid)`,
          [storedMessageId(messageId)],
        );
        return scans(rows[0]!['QUERY PLAN']);
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    };
    const freshPlan = await plan(fresh);
    expect(freshPlan.relations).toHaveLength(1);
    expect(freshPlan.relations[0]).toMatch(/^deliveries_p/);
    expect(freshPlan.indexes[0]).toMatch(/^deliveries_p.*_pkey$/);
    expect(await plan(legacy)).toEqual({
      relations: [expect.stringMatching(/^deliveries_before_/)],
      indexes: ['deliveries_legacy_message_id_idx'],
    });
  }, 90_000);

  it('on a database created since time partitions, leaves no index on message_id and no message legacy', async () => {
    // Its legacy partition took the rows of its first minute, written with their message's time.
    const fresh = await createTestDatabase();
    const { rows } = await fresh.pool.query(
      `SELECT hookline.legacy_ids_end() AS legacy_end,
                (SELECT count(*)::int FROM pg_index AS x
                  WHERE x.indkey::text = (SELECT attnum::text FROM pg_attribute
                                           WHERE attrelid = 'hookline.deliveries'::regclass AND attname = 'message_id')
                    AND (x.indrelid = 'hookline.deliveries'::regclass
                         OR x.indrelid IN (SELECT inhrelid FROM pg_inherits
                                            WHERE inhparent = 'hookline.deliveries'::regclass))) AS indexes,
                hookline.delivery_ids_from('000000000001aaaa0000000000000000') AS "from",
                hookline.delivery_ids_before('000000000001aaaa0000000000000000') AS before`,
    );
    // Ids are uuid since migration 20261208090000_ids_as_uuid: the message's millisecond to the next.
    expect(rows).toEqual([
      {
        legacy_end: '000000000000',
        indexes: 0,
        from: '00000000-0001-0000-0000-000000000000',
        before: '00000000-0002-0000-0000-000000000000',
      },
    ]);
  });
});
