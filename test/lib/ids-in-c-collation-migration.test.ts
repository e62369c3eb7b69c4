// Migration 20261203090000_ids_in_c_collation: every id column compares byte by byte, whatever the
// database's collation. This carries forward a database created as most servers are (its own
// collation en-US, by ICU, where the test server's is C) and written by the release before: periods
// with messages, deliveries and attempts, a delivery still waiting in a period whose DETACH ...
// CONCURRENTLY was cut short, and the pg_net compatibility views, with grants on a view and a table. Afterwards
// every id is in C, everything else a person reads keeps en-US, nothing moved or went missing, and a
// real worker delivers both what was waiting and a new event.
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../lib/database/migrate';
import { createPool, type Pool } from '../../lib/database/pg';
import { maintainTimePartitions } from '../../worker/time-partitions';
import { databaseBefore, migrateThrough } from '../support/database-before';
import { asPublicId, uuidBound, withUuidBounds } from '../support/public-ids';
import { createTestDatabase } from '../support/database';
import { waitUntilSucceeded } from '../support/deliveries';
import { answer, startReceiver, type Receiver } from '../support/receiver';
import {
  addPeriodsAhead,
  detachCutShort,
  STARTS_AHEAD as STARTS,
  TIME_PARTITIONED_TABLES as TABLES,
} from '../support/time-partitions';
import { startTestWorker, stopTestWorkers } from '../support/worker';

const MIGRATION = '20261203090000_ids_in_c_collation';
let dropDatabase: (() => Promise<void>) | undefined;
let pool: Pool | undefined;
let receiver: Receiver | undefined;

afterAll(async () => {
  await stopTestWorkers();
  await receiver?.close();
  await pool?.end();
  await dropDatabase?.();
});

interface TextColumn {
  table_name: string;
  column_name: string;
  collation: string;
}

/** Every text column of hookline's tables, partitions and loose periods alike, with its collation. */
async function textColumns(): Promise<TextColumn[]> {
  const { rows } = await pool!.query<TextColumn>(
    `SELECT c.relname AS table_name, a.attname AS column_name,
            CASE WHEN a.attcollation = 'pg_catalog.default'::regcollation THEN 'default' ELSE co.collname END AS collation
       FROM pg_class AS c
       JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       JOIN pg_collation AS co ON co.oid = a.attcollation
      WHERE c.relnamespace = 'hookline'::regnamespace AND c.relkind IN ('r', 'p')
        AND a.atttypid = 'text'::regtype
      ORDER BY 1, 2`,
  );
  return rows;
}

/** The partitions of a table with their bounds, and whether a detach is pending. */
async function partitionsOf(table: string): Promise<string[]> {
  const { rows } = await pool!.query<{ line: string }>(
    `SELECT c.relname || ' ' || pg_get_expr(c.relpartbound, c.oid) || CASE WHEN i.inhdetachpending THEN ' (detaching)' ELSE '' END AS line
       FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass ORDER BY c.relname`,
    [`hookline.${table}`],
  );
  return rows.map((row) => row.line);
}

async function indexesOf(table: string, db: Pool = pool!): Promise<string[]> {
  const { rows } = await db.query<{ definition: string }>(
    `SELECT pg_get_indexdef(indexrelid) AS definition FROM pg_index WHERE indrelid = $1::regclass ORDER BY 1`,
    [`hookline.${table}`],
  );
  return rows.map((row) => row.definition);
}

/** Its ids in their order, public (uuid since migration 20261208090000_ids_as_uuid for messages and deliveries). */
async function idsOf(table: string): Promise<string[]> {
  const kind = table === 'messages' ? 'msg' : table === 'deliveries' ? 'dlv' : null;
  return (await pool!.query<{ id: string }>(`SELECT id FROM hookline.${table} ORDER BY id`)).rows.map((row) =>
    kind === null ? row.id : asPublicId(kind, row.id),
  );
}

describe(`migration ${MIGRATION}`, () => {
  it('puts every id in the C collation on a database created in en-US, keeping every row, period, index, view and grant', async () => {
    const before = await databaseBefore(MIGRATION, { icuLocale: 'en-US' });
    dropDatabase = before.drop;
    pool = createPool(before.url, { max: 4 });
    // en-US puts a lowercase letter before its capital and both before the next letter; C puts every
    // capital first.
    const { rows: database } = await pool.query<{ provider: string; en_us: boolean }>(
      `SELECT datlocprovider AS provider, 'a' < 'B' AS en_us FROM pg_database WHERE datname = current_database()`,
    );
    expect(database[0]).toEqual({ provider: 'i', en_us: true });

    receiver = await startReceiver(answer(200, 'ok'));
    await pool.query(`INSERT INTO hookline.apps (id, name) VALUES ('app_en', 'Zebra crossing')`);
    await pool.query(`INSERT INTO hookline.event_types (app_id, name) VALUES ('app_en', 'order.placed')`);
    const { rows: endpoints } = await pool.query<{ id: string }>(
      `INSERT INTO hookline.endpoints (app_id, url) VALUES ('app_en', $1) RETURNING id`,
      [`${receiver.url}/en`],
    );
    const endpointId = endpoints[0]!.id;

    // Two periods far ahead, and one before them where the test's new event lands; in each of the two
    // far ahead a message, a finished delivery and its attempt; in the second, a delivery still waiting for its
    // retry, due now.
    await addPeriodsAhead(pool, STARTS);
    const waitingIds: string[] = [];
    for (const start of STARTS.slice(0, 2)) {
      const messageId = `msg_${start}00000000000000000001`;
      const finishedId = `dlv_${start}00000000000000000002`;
      await pool.query(
        // Fanned out long ago: no producer's transaction left for the fan-out to find it by.
        `INSERT INTO hookline.messages (id, app_id, event_type, payload, written_by)
         VALUES ($1, 'app_en', 'order.placed', '{"n": 1}', NULL)`,
        [messageId],
      );
      await pool.query(
        `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count, last_status_code)
         VALUES ($1, 'app_en', $2, $3, 'order.placed', 'succeeded', 1, 200)`,
        [finishedId, messageId, endpointId],
      );
      await pool.query(
        `INSERT INTO hookline.attempts (id, app_id, delivery_id, message_id, endpoint_id, attempt_number, worker_id,
                                        started_at, duration_ms, status_code)
         VALUES ($1, 'app_en', $2, $3, $4, 1, 'old-worker', now(), 3, 200)`,
        [`atmpt_${start}00000000000000000003`, finishedId, messageId, endpointId],
      );
      if (start === STARTS[1]) {
        const waitingId = `dlv_${start}00000000000000000004`;
        await pool.query(
          `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, attempt_count, claimable_at,
                                            last_error_class)
           VALUES ($1, 'app_en', $2, $3, 'order.placed', 1, now(), 'http_5xx')`,
          [waitingId, messageId, endpointId],
        );
        waitingIds.push(messageId);
      }
    }
    // Events not fanned out yet, as hookline.send writes them (this database has the functions as its
    // migrations left them, not this release's).
    const sent: string[] = [];
    for (const n of [5, 6, 7]) {
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO hookline.messages (id, app_id, event_type, payload)
         VALUES ($1, 'app_en', 'order.placed', $2::jsonb) RETURNING id`,
        [`msg_${STARTS[0]}0000000000000000000${n}`, JSON.stringify({ n })],
      );
      sent.push(rows[0]!.id);
    }
    await pool.query(`SELECT hookline.install_pg_net_compat()`);
    await pool.query(`GRANT SELECT ON net._http_response TO PUBLIC`);
    await pool.query(`GRANT SELECT ON hookline.messages TO PUBLIC`);
    await pool.query(`GRANT SELECT (id, app_id) ON hookline.dead_deliveries TO PUBLIC`);
    await pool.query(`COMMENT ON VIEW hookline.dead_deliveries IS 'deliveries that gave up'`);
    await pool.query(`COMMENT ON COLUMN hookline.dead_deliveries.app_id IS 'whose'`);
    // What a new parent must carry over besides its rows: a publication, a comment, a column's
    // statistics target, a trigger's firing mode.
    await pool.query(`CREATE PUBLICATION hookline_feed FOR TABLE hookline.messages`);
    await pool.query(`COMMENT ON TABLE hookline.deliveries IS 'one row per message and endpoint'`);
    await pool.query(`ALTER TABLE hookline.deliveries ALTER COLUMN endpoint_id SET STATISTICS 500`);
    await pool.query(`ALTER TABLE hookline.deliveries ENABLE ALWAYS TRIGGER deliveries_notify`);
    // Retention was detaching the second period's messages when its connection went, and the
    // maintenance the deliveries' (empty) overflow.
    await detachCutShort(pool, 'messages', 'messages_p21000101t0100');
    await detachCutShort(pool, 'deliveries', 'deliveries_overflow');

    const kept: Record<string, { ids: string[]; partitions: string[]; indexes: string[] }> = {};
    for (const { name } of TABLES) {
      kept[name] = { ids: await idsOf(name), partitions: await partitionsOf(name), indexes: await indexesOf(name) };
    }
    const textBefore = await textColumns();
    expect(textBefore.filter((column) => column.collation === 'C')).toEqual([]);

    // Through this migration and the next (the idempotency key's, below), no further: the later
    // 20261208090000_ids_as_uuid stores message and delivery ids as uuid, which has no collation.
    const { applied } = await migrateThrough(before.url, '20261204090000_idempotency_keys_in_c_collation');
    expect(applied[0]).toBe(MIGRATION);

    // Every id column (hookline's tables, each period, and the period left loose) compares in C; what
    // a person reads (names, URLs, event types) keeps the database's collation.
    const textAfter = await textColumns();
    // (The idempotency key followed in the next migration, 20261204090000_idempotency_keys_in_c_collation.)
    const comparedByBytes = (column: TextColumn) =>
      column.column_name === 'id' ||
      column.column_name.endsWith('_id') ||
      (column.table_name === 'idempotency_keys' && column.column_name === 'idempotency_key');
    expect(textAfter.filter((column) => comparedByBytes(column) && column.collation !== 'C')).toEqual([]);
    expect(textAfter.filter(comparedByBytes).length).toBeGreaterThan(60);
    expect(textAfter.filter((column) => !comparedByBytes(column) && column.collation !== 'default')).toEqual([]);
    expect(textAfter.find((c) => c.table_name === 'apps' && c.column_name === 'name')?.collation).toBe('default');
    const { rows: keys } = await pool.query<{ table_name: string; collation: string }>(
      `SELECT p.partrelid::regclass::text AS table_name, co.collname AS collation
         FROM pg_partitioned_table AS p JOIN pg_collation AS co ON co.oid = p.partcollation[0] ORDER BY 1`,
    );
    expect(keys).toEqual(
      TABLES.map(({ name }) => ({ table_name: `hookline.${name}`, collation: 'C' })).sort((a, b) =>
        a.table_name.localeCompare(b.table_name),
      ),
    );
    await migrate(before.url);

    // The same rows, ids in the same order, the same periods with the same bounds (the one being
    // detached is finished detaching and left loose for the maintenance), and the same indexes as a
    // database migrated from scratch (later migrations change some: a migration that lost one would
    // leave it missing here).
    const fromScratch = await createTestDatabase();
    for (const { name } of TABLES) {
      const loose = name === 'messages' ? 'messages_p21000101t0100' : null;
      expect(await idsOf(name)).toEqual(
        loose === null ? kept[name]!.ids : kept[name]!.ids.filter((id) => !id.startsWith(`msg_${STARTS[1]}`)),
      );
      // The overflow being detached was dropped before the migration and made again after it.
      expect(await partitionsOf(name)).toEqual(
        kept[name]!.partitions.filter((line) => !line.startsWith('messages_p21000101t0100')).map((line) =>
          withUuidBounds(line.replace(' (detaching)', '')),
        ),
      );
      expect(kept[name]!.indexes.length).toBeGreaterThan(1);
      expect(await indexesOf(name)).toEqual(await indexesOf(name, fromScratch.pool));
    }
    await fromScratch.pool.end();
    const { rows: invalid } = await pool.query(
      `SELECT indexrelid::regclass FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indexrelid
        WHERE c.relnamespace = 'hookline'::regnamespace AND NOT i.indisvalid`,
    );
    expect(invalid).toEqual([]);
    expect(
      (await pool.query(`SELECT count(*)::int AS n FROM pg_class WHERE relname LIKE '%default_collation%'`)).rows,
    ).toEqual([{ n: 0 }]);

    // The views are back, the compatibility view and its grant with them, and the statement trigger on
    // the deliveries' parent.
    const { rows: views } = await pool.query<{ name: string }>(
      `SELECT c.oid::regclass::text AS name FROM pg_class AS c
        WHERE c.relkind = 'v' AND c.relnamespace IN ('hookline'::regnamespace, 'net'::regnamespace) ORDER BY 1`,
    );
    expect(views.map((view) => view.name)).toEqual([
      'hookline._http_response',
      'hookline.dead_deliveries',
      'hookline.unfinished_deliveries',
      'net._http_response',
    ]);
    const { rows: onView } = await pool.query(
      `SELECT has_column_privilege('public', 'hookline.dead_deliveries', 'app_id', 'SELECT') AS column_granted,
              has_column_privilege('public', 'hookline.dead_deliveries', 'state', 'SELECT') AS other_column,
              obj_description('hookline.dead_deliveries'::regclass, 'pg_class') AS comment,
              col_description('hookline.dead_deliveries'::regclass,
                              (SELECT attnum FROM pg_attribute WHERE attrelid = 'hookline.dead_deliveries'::regclass
                                                                  AND attname = 'app_id')::int) AS column_comment`,
    );
    expect(onView).toEqual([
      { column_granted: true, other_column: false, comment: 'deliveries that gave up', column_comment: 'whose' },
    ]);
    for (const relation of ['net._http_response', 'hookline.messages']) {
      expect(
        (await pool.query(`SELECT has_table_privilege('public', $1, 'SELECT') AS granted`, [relation])).rows,
      ).toEqual([{ granted: true }]);
    }
    expect(
      (
        await pool.query(
          `SELECT count(*)::int AS n FROM hookline.unfinished_deliveries WHERE message_id = hookline.uuid_of($1)`,
          [waitingIds[0]],
        )
      ).rows,
    ).toEqual([{ n: 1 }]);
    expect(
      (
        await pool.query(
          `SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = 'hookline.deliveries'::regclass AND NOT tgisinternal`,
        )
      ).rows,
    ).toEqual([{ tgname: 'deliveries_notify', tgenabled: 'A' }]);
    const { rows: carried } = await pool.query(
      `SELECT (SELECT array_agg(pubname::text) FROM pg_publication_rel AS pr JOIN pg_publication AS p ON p.oid = pr.prpubid
                WHERE pr.prrelid = 'hookline.messages'::regclass) AS publications,
              obj_description('hookline.deliveries'::regclass, 'pg_class') AS comment,
              (SELECT attstattarget::int FROM pg_attribute
                WHERE attrelid = 'hookline.deliveries'::regclass AND attname = 'endpoint_id') AS statistics`,
    );
    expect(carried).toEqual([
      { publications: ['hookline_feed'], comment: 'one row per message and endpoint', statistics: 500 },
    ]);

    // The maintenance finishes the cut-short detach: the period still has a delivery to send, so it is
    // attached back, which needs the loose table's ids in the parent's collation.
    const result = await maintainTimePartitions(pool, { retentionMs: null, periodMs: 60_000 });
    expect(result?.dropped).not.toContain('p21000101t0100');
    expect(await partitionsOf('messages')).toContain(
      `messages_p21000101t0100 FOR VALUES FROM ('${uuidBound(STARTS[1]!)}') TO ('${uuidBound(STARTS[2]!)}')`,
    );

    // A real worker delivers what was waiting and what was sent, and a new event.
    const { rows: fresh } = await pool.query<{ id: string }>(
      `SELECT hookline.send('app_en', 'order.placed', '{"n": 4}'::jsonb) AS id`,
    );
    await startTestWorker(before.url);
    const expected = [...waitingIds, ...sent, fresh[0]!.id];
    await waitUntilSucceeded(
      pool,
      endpointId,
      expected,
      'the waiting delivery, the events sent before and the new one delivered',
    );
    await stopTestWorkers();
    expect(receiver.requests.map((request) => request.headers['webhook-id']).sort()).toEqual([...expected].sort());
  }, 90_000);

  it('refuses, changing nothing and naming them, when objects of the user depend on a table it rebuilds', async () => {
    const before = await databaseBefore(MIGRATION, { icuLocale: 'en-US' });
    const userPool = createPool(before.url, { max: 2 });
    try {
      await userPool.query(`CREATE TABLE public.message_notes (message_id text REFERENCES hookline.messages (id))`);
      await userPool.query(`CREATE MATERIALIZED VIEW public.daily AS SELECT count(*) AS n FROM hookline.deliveries`);
      await expect(migrate(before.url)).rejects.toThrow(
        /cannot carry these over: materialized view public\.daily reads a hookline table; foreign key message_notes_message_id_fkey of message_notes references hookline\.messages\. Drop them/,
      );
      const { rows } = await userPool.query(
        `SELECT (SELECT count(*)::int FROM hookline._prisma_migrations WHERE migration_name = $1) AS recorded,
                (SELECT collname FROM pg_collation WHERE oid = (SELECT partcollation[0] FROM pg_partitioned_table
                                                                 WHERE partrelid = 'hookline.messages'::regclass)) AS key`,
        [MIGRATION],
      );
      expect(rows).toEqual([{ recorded: 0, key: 'default' }]);
      // Once they are out of the way, it goes through.
      await userPool.query(`DROP MATERIALIZED VIEW public.daily`);
      await userPool.query(`DROP TABLE public.message_notes`);
      expect((await migrate(before.url)).applied[0]).toBe(MIGRATION);
    } finally {
      await userPool.end();
      await before.drop();
    }
  });
});
