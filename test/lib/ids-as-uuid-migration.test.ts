// Migration 20261208090000_ids_as_uuid: message and delivery ids are stored as uuid, and everything a
// caller sees keeps the public ids ('msg_'/'dlv_' and the uuid's 32 hex digits). This carries forward a
// database written by the release before: events sent through hookline.send (one with an idempotency
// key, three in one transaction the fan-out took in part), periods ahead with a message, deliveries and
// an attempt each as the worker writes them, an issue naming a dead delivery, a period retention
// detached (DETACH ... CONCURRENTLY, which leaves its bound as a CHECK), a user's views over the
// messages and a grant. Afterwards every row answers with the public id it had, in the period it was
// in, the periods' bounds are uuids, the same-time CHECKs still hold, and the loose period attaches
// back. A view that cannot read uuid ids refuses the migration, naming it, and nothing changes.
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../lib/database/migrate';
import { createPool, type Pool } from '../../lib/database/pg';
import { databaseBefore } from '../support/database-before';
import { waitingForFanOut } from '../support/deliveries';
import { addPeriodsAhead, STARTS_AHEAD as STARTS } from '../support/time-partitions';

const MIGRATION = '20261208090000_ids_as_uuid';
let dropDatabase: (() => Promise<void>) | undefined;
let pool: Pool | undefined;

afterAll(async () => {
  await pool?.end();
  await dropDatabase?.();
});

/** The uuid, as PostgreSQL prints it, of 12 hex digits of milliseconds and 20 zeros: a period's bound. */
const boundOf = (millis: string) => `${millis.slice(0, 8)}-${millis.slice(8, 12)}-0000-0000-000000000000`;

/** The period retention detached: its messages and deliveries are loose tables when the migration runs. */
const LOOSE = 'p21000101t0000';

/**
 * Every row of a table and of its loose period, as "<table the row is in> <its ids, public>", for the
 * columns that name a message or a delivery: read as text before the migration, through
 * hookline.public_id after it (`stored` says which).
 */
async function rowsOf(table: string, columns: Record<string, 'msg' | 'dlv' | null>, stored: 'text' | 'uuid') {
  const select = Object.entries(columns)
    .map(([column, kind]) =>
      kind === null || stored === 'text' ? `${column}::text` : `hookline.public_id('${kind}', ${column})`,
    )
    .join(` || ' ' || `);
  const loose =
    table === 'attempts'
      ? ''
      : `UNION ALL SELECT tableoid::regclass::text || ' ' || ${select} FROM hookline.${table}_${LOOSE}`;
  const { rows } = await pool!.query<{ line: string }>(
    `SELECT line FROM (SELECT tableoid::regclass::text || ' ' || ${select} AS line FROM hookline.${table} ${loose}) AS r
      ORDER BY 1`,
  );
  return rows.map((row) => row.line);
}

const TABLES: Record<string, Record<string, 'msg' | 'dlv' | null>> = {
  messages: { id: 'msg', app_id: null },
  deliveries: { id: 'dlv', message_id: 'msg', endpoint_id: null, state: null },
  attempts: { id: null, delivery_id: 'dlv', message_id: 'msg' },
  idempotency_keys: { idempotency_key: null, message_id: 'msg' },
  issue_deliveries: { issue_id: null, delivery_id: 'dlv' },
};

async function everyRow(stored: 'text' | 'uuid'): Promise<Record<string, string[]>> {
  const all: Record<string, string[]> = {};
  for (const [table, columns] of Object.entries(TABLES)) {
    if (table === 'messages' || table === 'deliveries' || table === 'attempts') {
      all[table] = await rowsOf(table, columns, stored);
    } else {
      const select = Object.entries(columns)
        .map(([column, kind]) =>
          kind === null || stored === 'text' ? `${column}::text` : `hookline.public_id('${kind}', ${column})`,
        )
        .join(` || ' ' || `);
      const { rows } = await pool!.query<{ line: string }>(
        `SELECT ${select} AS line FROM hookline.${table} ORDER BY 1`,
      );
      all[table] = rows.map((row) => row.line);
    }
  }
  const { rows: cursor } = await pool!.query<{ line: string }>(
    stored === 'text'
      ? `SELECT partial_through_id AS line FROM hookline.fanout_cursor`
      : `SELECT hookline.public_id('msg', partial_through_id) AS line FROM hookline.fanout_cursor`,
  );
  all['fanout_cursor'] = cursor.map((row) => row.line);
  return all;
}

/** The partitions of a table with their bounds. */
async function partitionsOf(table: string): Promise<string[]> {
  const { rows } = await pool!.query<{ line: string }>(
    `SELECT c.relname || ' ' || pg_get_expr(c.relpartbound, c.oid) AS line
       FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass ORDER BY c.relname`,
    [`hookline.${table}`],
  );
  return rows.map((row) => row.line);
}

/** The CHECKs named <table>_..._same_time or _id_check of hookline's tables, with their definitions. */
async function periodChecks(): Promise<Record<string, string>> {
  const { rows } = await pool!.query<{ name: string; definition: string }>(
    `SELECT k.conname AS name, pg_get_constraintdef(k.oid) AS definition
       FROM pg_constraint AS k JOIN pg_class AS c ON c.oid = k.conrelid
      WHERE c.relnamespace = 'hookline'::regnamespace AND k.contype = 'c'
        AND (k.conname LIKE '%\\_same\\_time' OR k.conname LIKE '%\\_id\\_check')
      ORDER BY 1`,
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.definition]));
}

async function columnTypes(): Promise<Record<string, string>> {
  const { rows } = await pool!.query<{ name: string; type: string }>(
    `SELECT c.relname || '.' || a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_class AS c JOIN pg_attribute AS a ON a.attrelid = c.oid
      WHERE c.relnamespace = 'hookline'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND (c.relname, a.attname) IN (('messages', 'id'), ('deliveries', 'id'), ('deliveries', 'message_id'),
                                       ('attempts', 'id'), ('attempts', 'delivery_id'), ('attempts', 'message_id'),
                                       ('idempotency_keys', 'message_id'), ('issue_deliveries', 'delivery_id'),
                                       ('fanout_cursor', 'partial_through_id'), ('fanout_batches', 'after_partial_id'),
                                       ('fanout_batches', 'through_partial_id'),
                                       ('messages_${LOOSE}', 'id'), ('deliveries_${LOOSE}', 'id'),
                                       ('deliveries_${LOOSE}', 'message_id'))
      ORDER BY 1`,
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.type]));
}

/** Writes what the release before wrote, into a database migrated up to the migration before this one. */
async function writeAsTheReleaseBefore(db: Pool): Promise<{ endpointId: string; keyed: string; inPart: string[] }> {
  await db.query(`INSERT INTO hookline.apps (id, name) VALUES ('app_a', 'A')`);
  await db.query(`INSERT INTO hookline.event_types (app_id, name) VALUES ('app_a', 'order.placed')`);
  const { rows: endpoints } = await db.query<{ id: string }>(
    `INSERT INTO hookline.endpoints (app_id, url) VALUES ('app_a', 'http://127.0.0.1:9/a') RETURNING id`,
  );
  const endpointId = endpoints[0]!.id;
  await addPeriodsAhead(db, STARTS);
  // Each named as hookline names periods with the same-time CHECK that release's
  // hookline.add_time_partition gave one (the period up to them, a test's, is named otherwise).
  for (const period of ['p21000101t0000', 'p21000101t0100', 'overflow']) {
    await db.query(
      `ALTER TABLE hookline.deliveries_${period} ADD CONSTRAINT deliveries_${period}_same_time
         CHECK (substr(id, 5, 12) = substr(message_id, 5, 12))`,
    );
    await db.query(
      `ALTER TABLE hookline.attempts_${period} ADD CONSTRAINT attempts_${period}_same_time
         CHECK (substr(id, 7, 12) = substr(delivery_id, 5, 12))`,
    );
  }

  // Through hookline.send (that release's): one with an idempotency key, and
  // three in one producer transaction the fan-out's cursor took through the first of.
  const { rows: keyedRows } = await db.query<{ id: string }>(
    `SELECT hookline.send('app_a', 'order.placed', '{"n": 1}'::jsonb, 'order-1') AS id`,
  );
  const keyed = keyedRows[0]!.id;
  const producer = await db.connect();
  const inPart: string[] = [];
  try {
    await producer.query('BEGIN');
    for (const n of [2, 3, 4]) {
      const { rows } = await producer.query<{ id: string }>(
        `SELECT hookline.send('app_a', 'order.placed', $1::jsonb) AS id`,
        [JSON.stringify({ n })],
      );
      inPart.push(rows[0]!.id);
    }
    await producer.query('COMMIT');
  } finally {
    producer.release();
  }
  inPart.sort();
  await db.query(
    `UPDATE hookline.fanout_cursor
        SET partial_xid = (SELECT written_by FROM hookline.messages WHERE id = $1), partial_through_id = $1`,
    [inPart[0]],
  );

  // In each period ahead a message fanned out long ago, a delivery that succeeded with its attempt and
  // one that gave up, named by an issue.
  for (const start of STARTS.slice(0, 2)) {
    const messageId = `msg_${start}00000000000000000001`;
    const succeededId = `dlv_${start}00000000000000000002`;
    const deadId = `dlv_${start}00000000000000000003`;
    await db.query(
      `INSERT INTO hookline.messages (id, app_id, event_type, payload, written_by)
       VALUES ($1, 'app_a', 'order.placed', '{}', NULL)`,
      [messageId],
    );
    await db.query(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
                                        last_status_code, last_error_class)
       VALUES ($1, 'app_a', $2, $3, 'order.placed', 'succeeded', 1, 200, NULL),
              ($4, 'app_a', $2, $3, 'order.placed', 'dead', 1, 500, 'http_5xx')`,
      [succeededId, messageId, endpointId, deadId],
    );
    await db.query(
      `INSERT INTO hookline.attempts (id, app_id, delivery_id, message_id, endpoint_id, attempt_number, worker_id,
                                      started_at, duration_ms, status_code)
       VALUES ($1, 'app_a', $2, $3, $4, 1, 'old-worker', now(), 3, 200), ($5, 'app_a', $6, $3, $4, 1, 'old-worker', now(), 3, 500)`,
      [
        `atmpt_${start}00000000000000000004`,
        succeededId,
        messageId,
        endpointId,
        `atmpt_${start}00000000000000000005`,
        deadId,
      ],
    );
    const { rows: issues } = await db.query<{ id: string }>(
      `INSERT INTO hookline.issues (app_id, subject_id, error_class, title)
       VALUES ('app_a', $1, 'http_5xx', 'dead deliveries') RETURNING id`,
      [`${endpointId}/${start}`],
    );
    await db.query(`INSERT INTO hookline.issue_deliveries (issue_id, delivery_id, app_id) VALUES ($1, $2, 'app_a')`, [
      issues[0]!.id,
      deadId,
    ]);
  }
  // Retention detached the first period's messages and deliveries (and has not dropped them yet).
  for (const table of ['messages', 'deliveries']) {
    await db.query(`ALTER TABLE hookline.${table} DETACH PARTITION hookline.${table}_${LOOSE} CONCURRENTLY`);
  }
  return { endpointId, keyed, inPart };
}

describe(`migration ${MIGRATION}`, () => {
  it('stores every message and delivery id as uuid, each row keeping its public id and its period', async () => {
    const before = await databaseBefore(MIGRATION, { releaseFunctions: true });
    dropDatabase = before.drop;
    pool = createPool(before.url, { max: 4 });
    const { endpointId, keyed, inPart } = await writeAsTheReleaseBefore(pool);
    // A user's views over the messages, one over the other, and grants on them and on the table.
    await pool.query(
      `CREATE VIEW public.recent_messages AS SELECT id, app_id, event_type FROM hookline.messages WHERE app_id = 'app_a'`,
    );
    await pool.query(
      `CREATE VIEW public.recent_message_count AS SELECT count(*)::int AS n FROM public.recent_messages`,
    );
    await pool.query(`GRANT SELECT ON public.recent_messages TO PUBLIC`);
    await pool.query(`GRANT SELECT ON hookline.messages TO PUBLIC`);

    const rowsBefore = await everyRow('text');
    // Every kind of row was written, the detached period holds its message and deliveries.
    expect(rowsBefore['messages']).toHaveLength(6);
    expect(rowsBefore['messages']!.filter((line) => line.startsWith(`hookline.messages_${LOOSE} `))).toHaveLength(1);
    expect(rowsBefore['deliveries']!.filter((line) => line.startsWith(`hookline.deliveries_${LOOSE} `))).toHaveLength(
      2,
    );
    expect(rowsBefore['attempts']).toHaveLength(4);
    expect(rowsBefore['idempotency_keys']).toEqual([`order-1 ${keyed}`]);
    expect(rowsBefore['issue_deliveries']).toHaveLength(2);
    expect(rowsBefore['fanout_cursor']).toEqual([inPart[0]]);
    const partitionsBefore = { messages: await partitionsOf('messages'), deliveries: await partitionsOf('deliveries') };
    const checksBefore = await periodChecks();
    expect(checksBefore[`messages_${LOOSE}_id_check`]).toContain(`'msg_${STARTS[0]}'`);
    expect(checksBefore[`deliveries_${LOOSE}_same_time`]).toBeDefined();
    expect(Object.keys(checksBefore).filter((name) => name.startsWith('attempts_')).length).toBeGreaterThan(2);

    const { applied } = await migrate(before.url);
    expect(applied).toEqual([MIGRATION]);

    // The ids are uuid, the loose period's too; an attempt keeps its own text id.
    const types = await columnTypes();
    expect(types).toEqual({
      'attempts.delivery_id': 'uuid',
      'attempts.id': 'text',
      'attempts.message_id': 'uuid',
      [`deliveries_${LOOSE}.id`]: 'uuid',
      [`deliveries_${LOOSE}.message_id`]: 'uuid',
      'deliveries.id': 'uuid',
      'deliveries.message_id': 'uuid',
      'fanout_batches.after_partial_id': 'uuid',
      'fanout_batches.through_partial_id': 'uuid',
      'fanout_cursor.partial_through_id': 'uuid',
      'idempotency_keys.message_id': 'uuid',
      'issue_deliveries.delivery_id': 'uuid',
      [`messages_${LOOSE}.id`]: 'uuid',
      'messages.id': 'uuid',
    });

    // Every row is where it was, answering the public id it had.
    expect(await everyRow('uuid')).toEqual(rowsBefore);

    // The periods keep their names, their bounds now the uuids of their milliseconds.
    for (const table of ['messages', 'deliveries'] as const) {
      expect(await partitionsOf(table)).toEqual(
        partitionsBefore[table].map((line) =>
          line.replace(/'(?:msg|dlv)_([0-9a-f]{12})'/g, (_, millis: string) => `'${boundOf(millis)}'`),
        ),
      );
    }
    expect((await partitionsOf('messages')).join('\n')).toContain(
      `messages_p21000101t0100 FOR VALUES FROM ('${boundOf(STARTS[1]!)}') TO ('${boundOf(STARTS[2]!)}')`,
    );

    // The same CHECKs, in uuid terms: each still refuses a row of another time.
    const checksAfter = await periodChecks();
    expect(Object.keys(checksAfter)).toEqual(Object.keys(checksBefore));
    expect(checksAfter[`messages_${LOOSE}_id_check`]).toContain(`'${boundOf(STARTS[0]!)}'::uuid`);
    expect(checksAfter[`messages_${LOOSE}_id_check`]).not.toContain('msg_');
    const otherTime = `${STARTS[0]}00000000000000000009`;
    const thisTime = `${STARTS[1]}00000000000000000009`;
    await expect(
      pool.query(
        `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count, last_status_code)
         VALUES ($1, 'app_a', $2, $3, 'order.placed', 'succeeded', 1, 200)`,
        [thisTime, otherTime, endpointId],
      ),
    ).rejects.toThrow(/deliveries_p21000101t0100_same_time/);
    await expect(
      pool.query(
        `INSERT INTO hookline.attempts (id, app_id, delivery_id, message_id, endpoint_id, attempt_number, worker_id,
                                        started_at, duration_ms)
         VALUES ($1, 'app_a', $2, $2, $3, 1, 'w', now(), 1)`,
        [`atmpt_${thisTime}`, otherTime, endpointId],
      ),
    ).rejects.toThrow(/attempts_p21000101t0100_same_time/);
    await expect(
      pool.query(
        `INSERT INTO hookline.deliveries_${LOOSE} (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
                                                  last_status_code)
         VALUES ($1, 'app_a', $2, $3, 'order.placed', 'succeeded', 1, 200)`,
        [otherTime, thisTime, endpointId],
      ),
    ).rejects.toThrow(new RegExp(`deliveries_${LOOSE}_same_time`));
    // ...and lets one of its own time in.
    await pool.query(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count, last_status_code)
       VALUES ($1, 'app_a', $2, $3, 'order.placed', 'succeeded', 1, 200)`,
      [thisTime.replace(/9$/, '8'), thisTime, endpointId],
    );

    // The loose period attaches back with bounds of its uuids, its rows visible through the parent.
    for (const table of ['messages', 'deliveries']) {
      await pool.query(
        `ALTER TABLE hookline.${table} ATTACH PARTITION hookline.${table}_${LOOSE}
           FOR VALUES FROM ('${boundOf(STARTS[0]!)}') TO ('${boundOf(STARTS[1]!)}')`,
      );
    }
    expect(
      (
        await pool.query<{ id: string }>(
          `SELECT hookline.public_id('msg', id) AS id FROM hookline.messages WHERE id = $1`,
          [`${STARTS[0]}00000000000000000001`],
        )
      ).rows,
    ).toEqual([{ id: `msg_${STARTS[0]}00000000000000000001` }]);

    // The user's views are back and read the uuids; the grants are kept.
    const { rows: viewed } = await pool.query<{ id: string }>(
      `SELECT hookline.public_id('msg', id) AS id FROM public.recent_messages WHERE id = hookline.uuid_of($1)`,
      [keyed],
    );
    expect(viewed).toEqual([{ id: keyed }]);
    expect((await pool.query(`SELECT n FROM public.recent_message_count`)).rows).toEqual([{ n: 6 }]);
    expect(
      (
        await pool.query(
          `SELECT has_table_privilege('public', 'hookline.messages', 'SELECT') AS on_table,
                  has_table_privilege('public', 'public.recent_messages', 'SELECT') AS on_view`,
        )
      ).rows,
    ).toEqual([{ on_table: true, on_view: true }]);

    // The idempotency key still answers its message; the cursor still holds the transaction in part
    // through its first message: the two after it wait for the fan-out, the first does not.
    const { rows: again } = await pool.query<{ id: string }>(
      `SELECT hookline.send('app_a', 'order.placed', '{"n": 9}'::jsonb, 'order-1') AS id`,
    );
    expect(again).toEqual([{ id: keyed }]);
    expect(await waitingForFanOut(pool, inPart[0])).toBe(0);
    expect(await waitingForFanOut(pool, inPart[1])).toBe(1);
    expect(await waitingForFanOut(pool, inPart[2])).toBe(1);
  });

  it('refuses, changing nothing and naming it, when a view cannot read the ids as uuid', async () => {
    const before = await databaseBefore(MIGRATION, { releaseFunctions: true });
    const userPool = createPool(before.url, { max: 2 });
    try {
      await userPool.query(`INSERT INTO hookline.apps (id, name) VALUES ('app_a', 'A')`);
      await userPool.query(`INSERT INTO hookline.event_types (app_id, name) VALUES ('app_a', 'order.placed')`);
      const { rows: sent } = await userPool.query<{ id: string }>(
        `SELECT hookline.send('app_a', 'order.placed', '{}'::jsonb) AS id`,
      );
      await userPool.query(`CREATE VIEW public.our_messages AS SELECT id FROM hookline.messages WHERE id LIKE 'msg_%'`);
      await expect(migrate(before.url)).rejects.toThrow(
        /view public\.our_messages reads message or delivery ids and cannot be created again over them as uuid: operator does not exist: uuid ~~/,
      );
      const { rows } = await userPool.query(
        `SELECT (SELECT count(*)::int FROM hookline._prisma_migrations WHERE migration_name = $1) AS recorded,
                (SELECT format_type(atttypid, atttypmod) FROM pg_attribute
                  WHERE attrelid = 'hookline.messages'::regclass AND attname = 'id') AS id_type,
                (SELECT array_agg(id) FROM public.our_messages) AS viewed`,
        [MIGRATION],
      );
      expect(rows).toEqual([{ recorded: 0, id_type: 'text', viewed: [sent[0]!.id] }]);
      // Once it is out of the way, it goes through.
      await userPool.query(`DROP VIEW public.our_messages`);
      expect((await migrate(before.url)).applied).toEqual([MIGRATION]);
    } finally {
      await userPool.end();
      await before.drop();
    }
  });
});
