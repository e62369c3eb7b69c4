import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { applyPayloadLimit } from '../../lib/database/apply-payload-limit';
import { fanOutQueued, waitingForFanOut } from '../support/deliveries';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';

let db: TestDatabase;
let appId: string;
let otherAppId: string;
let allEvents: string;
let invoicesOnly: string;

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool);
  otherAppId = await createApp(db.pool, 'Other');
  await createEventType(db.pool, appId, 'invoice.paid');
  await createEventType(db.pool, appId, 'user.created');
  await createEventType(db.pool, appId, 'old.thing', true);
  await createEventType(db.pool, otherAppId, 'invoice.paid');
  allEvents = (await createEndpoint(db.pool, appId, 'https://example.com/all')).id;
  invoicesOnly = (
    await createEndpoint(db.pool, appId, 'https://example.com/invoices', { eventTypes: ['invoice.paid'] })
  ).id;
  await createEndpoint(db.pool, appId, 'https://example.com/off', { enabled: false });
  await createEndpoint(db.pool, otherAppId, 'https://example.com/other-app');
});

describe('hookline.send', () => {
  it('records the message, stamped with the caller transaction, and nothing else; the fan-out makes one delivery per matching enabled endpoint of that app only', async () => {
    const client = await db.pool.connect();
    let messageId: string;
    try {
      await client.query('BEGIN');
      await client.query('SAVEPOINT inner_part');
      const { rows } = await client.query<{ id: string; xact: string }>(
        `SELECT hookline.send($1, 'invoice.paid', '{"amount": 42}') AS id, pg_current_xact_id()::text AS xact`,
        [appId],
      );
      messageId = rows[0]!.id;
      await client.query('RELEASE SAVEPOINT inner_part');
      // The top-level transaction's id, though written inside a savepoint: what snapshots list.
      const { rows: stamped } = await client.query<{ written_by: string; top: string }>(
        `SELECT written_by::text, pg_current_xact_id()::text AS top FROM hookline.messages WHERE id = hookline.uuid_of($1)`,
        [messageId],
      );
      expect(stamped[0]!.written_by).toBe(stamped[0]!.top);
      expect(stamped[0]!.written_by).toBe(rows[0]!.xact);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(messageId).toMatch(/^msg_[0-9a-f]{32}$/);
    // The producer paid for the message only: no delivery yet, whatever the number of subscribed
    // endpoints, and no other row (no fan-out queue).
    expect(await waitingForFanOut(db.pool, messageId)).toBe(1);
    expect(await countRows(db.pool, 'deliveries', 'message_id = hookline.uuid_of($1)', [messageId])).toBe(0);
    const { rows: tables } = await db.pool.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'hookline' AND c.relname = 'fanout_queue'`,
    );
    expect(tables).toEqual([]);

    expect(await fanOutQueued(db.pool)).toBe(2);
    expect(await waitingForFanOut(db.pool, messageId)).toBe(0);
    const deliveries = await db.pool.query(
      'SELECT endpoint_id, state, app_id, attempt_count FROM hookline.deliveries WHERE message_id = hookline.uuid_of($1) ORDER BY endpoint_id',
      [messageId],
    );
    expect(deliveries.rows.map((row) => row.endpoint_id).sort()).toEqual([allEvents, invoicesOnly].sort());
    expect(
      deliveries.rows.every((row) => row.state === 'pending' && row.app_id === appId && row.attempt_count === 0),
    ).toBe(true);

    const filtered = await db.pool.query<{ id: string }>(`SELECT hookline.send($1, 'user.created', '{}') AS id`, [
      appId,
    ]);
    await fanOutQueued(db.pool);
    const filteredDeliveries = await db.pool.query(
      'SELECT endpoint_id FROM hookline.deliveries WHERE message_id = hookline.uuid_of($1)',
      [filtered.rows[0]!.id],
    );
    expect(filteredDeliveries.rows.map((row) => row.endpoint_id)).toEqual([allEvents]);
  });

  it('records nothing when the caller rolls back', async () => {
    const before = await countRows(db.pool, 'messages');
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT hookline.send($1, 'invoice.paid', '{"rolled": "back"}')`, [appId]);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(await countRows(db.pool, 'messages')).toBe(before);
  });

  it('returns the existing message for a repeated idempotency key and records nothing new', async () => {
    const first = await db.pool.query<{ id: string }>(
      `SELECT hookline.send($1, 'invoice.paid', '{"n":1}', 'key-1') AS id`,
      [appId],
    );
    const messagesBefore = await countRows(db.pool, 'messages');
    const waitingBefore = await waitingForFanOut(db.pool);
    const second = await db.pool.query<{ id: string }>(
      `SELECT hookline.send($1, 'invoice.paid', '{"n":2}', 'key-1') AS id`,
      [appId],
    );
    expect(second.rows[0]!.id).toBe(first.rows[0]!.id);
    expect(await countRows(db.pool, 'messages')).toBe(messagesBefore);
    expect(await waitingForFanOut(db.pool)).toBe(waitingBefore);
    // The key is per app: another app may use the same key.
    const otherApp = await db.pool.query<{ id: string }>(
      `SELECT hookline.send($1, 'invoice.paid', '{}', 'key-1') AS id`,
      [otherAppId],
    );
    expect(otherApp.rows[0]!.id).not.toBe(first.rows[0]!.id);
  });

  it("compares its arguments in the database's collation, whatever collation the caller passes", async () => {
    // Without it, "C" against the columns' default was an error ("could not determine which collation
    // to use"), and a case-insensitive collation would match an event type the REST API would not.
    const keyed = `SELECT hookline.send($1 COLLATE "C", $2 COLLATE "C", '{}', $3 COLLATE "C") AS id`;
    const first = await db.pool.query<{ id: string }>(keyed, [appId, 'invoice.paid', 'collated-1']);
    const again = await db.pool.query<{ id: string }>(keyed, [appId, 'invoice.paid', 'collated-1']);
    expect(again.rows[0]!.id).toBe(first.rows[0]!.id);
    await db.pool.query(`SELECT hookline.send($1 COLLATE "C", 'invoice.paid', '{}')`, [appId]);
    const { rows } = await db.pool.query<{ icu: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_collation WHERE collprovider = 'i') AS icu`,
    );
    if (!rows[0]!.icu) return; // a server built without ICU has no case-insensitive collation to pass
    await db.pool.query(
      `CREATE COLLATION IF NOT EXISTS public.case_insensitive (provider = icu, locale = 'und-u-ks-level2', deterministic = false)`,
    );
    await expect(
      db.pool.query(`SELECT hookline.send($1, $2 COLLATE public.case_insensitive, '{}')`, [appId, 'INVOICE.PAID']),
    ).rejects.toThrow(/unknown event type 'INVOICE.PAID'/);
  });

  it('finds the app, its event type and an idempotency key through their indexes, whatever collation the caller passes', async () => {
    // Ids compare in C (migration 20261203090000_ids_in_c_collation): an argument named in the
    // database's collation instead could not use a C index, and every call read hookline.event_types
    // whole (~7 ms a call with 30,000 event types on PostgreSQL 15, against 0.1). Enough rows that a
    // sequential scan would be the planner's last choice.
    await db.pool.query(
      `INSERT INTO hookline.apps (id, name) SELECT 'app_bulk' || lpad(i::text, 5, '0'), 'Bulk ' || i
         FROM generate_series(1, 2000) AS i`,
    );
    await db.pool.query(
      `INSERT INTO hookline.event_types (app_id, name)
       SELECT 'app_bulk' || lpad((i / 10 + 1)::text, 5, '0'), 'bulk.t' || (i % 10) FROM generate_series(0, 19999) AS i`,
    );
    await db.pool.query(
      `INSERT INTO hookline.idempotency_keys (app_id, idempotency_key, message_id)
       SELECT 'app_bulk' || lpad((i / 10 + 1)::text, 5, '0'), 'bulk-' || i, lpad(to_hex(i), 32, '0')::uuid
         FROM generate_series(0, 19999) AS i`,
    );
    // And many keys of the app sent to: a key compared in another collation than its column's
    // (migration 20261204090000_idempotency_keys_in_c_collation) still reaches the primary key through
    // the app id, then reads every key of the app.
    await db.pool.query(
      `INSERT INTO hookline.idempotency_keys (app_id, idempotency_key, message_id)
       SELECT $1, 'own-' || i, lpad(to_hex(100000 + i), 32, '0')::uuid FROM generate_series(0, 19999) AS i`,
      [appId],
    );
    await db.pool.query('ANALYZE hookline.apps, hookline.event_types, hookline.idempotency_keys');
    const client = await db.pool.connect();
    const seqScans = async () => {
      await client.query('SELECT pg_stat_force_next_flush()');
      const { rows } = await client.query<{ relname: string; seq_scan: number }>(
        `SELECT relname, seq_scan::int FROM pg_stat_user_tables
          WHERE schemaname = 'hookline' AND relname IN ('apps', 'event_types', 'idempotency_keys') ORDER BY relname`,
      );
      return rows;
    };
    const keyEntriesRead = async () => {
      await client.query('SELECT pg_stat_force_next_flush()');
      const { rows } = await client.query<{ read: number }>(
        `SELECT idx_tup_read::int AS read FROM pg_stat_user_indexes
          WHERE schemaname = 'hookline' AND indexrelname = 'idempotency_keys_pkey'`,
      );
      return rows[0]!.read;
    };
    try {
      const before = await seqScans();
      const keyEntriesBefore = await keyEntriesRead();
      // Each path more than five times, so that PL/pgSQL's generic plans are the ones used.
      for (let i = 0; i < 7; i++) {
        await client.query(`SELECT hookline.send($1, 'invoice.paid', '{}')`, [appId]);
        await client.query(`SELECT hookline.send($1 COLLATE "C", 'invoice.paid' COLLATE "C", '{}')`, [appId]);
        await client.query(`SELECT hookline.send($1, 'invoice.paid', '{}', $2)`, [appId, `indexed-${i % 2}`]);
        await expect(client.query(`SELECT hookline.send($1, 'nope.never', '{}')`, [appId])).rejects.toThrow(
          /unknown event type/,
        );
        await expect(client.query(`SELECT hookline.send('app_nope', 'invoice.paid', '{}')`)).rejects.toThrow(
          /unknown app/,
        );
      }
      expect(await seqScans()).toEqual(before);
      // 14 keyed sends (7 claims, 5 of them repeats that look the first message up): a few entries
      // each, not the app's 20,000.
      expect(await keyEntriesRead()).toBeLessThan(keyEntriesBefore + 100);
    } finally {
      client.release();
    }
  });

  it('gives one message when concurrent transactions use the same idempotency key', async () => {
    const ids = await Promise.all(
      Array.from({ length: 5 }, () =>
        db.pool.query<{ id: string }>(`SELECT hookline.send($1, 'invoice.paid', '{}', 'race') AS id`, [appId]),
      ),
    );
    expect(new Set(ids.map((result) => result.rows[0]!.id)).size).toBe(1);
    expect(await countRows(db.pool, 'messages', `idempotency_key = 'race'`)).toBe(1);
  });

  it.each([
    ['an unknown app', 'app_nope', 'invoice.paid', /unknown app 'app_nope'/],
    ['an unknown event type', null, 'nope.never', /unknown event type 'nope.never'/],
    ['an archived event type', null, 'old.thing', /event type 'old.thing' .* is archived/],
  ])('refuses %s with an error that says so', async (_label, app, eventType, message) => {
    const before = await countRows(db.pool, 'messages');
    await expect(db.pool.query(`SELECT hookline.send($1, $2, '{}')`, [app ?? appId, eventType])).rejects.toThrow(
      message,
    );
    expect(await countRows(db.pool, 'messages')).toBe(before);
  });

  it.each([
    ['an unknown app', 'app_nope', 'invoice.paid', /unknown app 'app_nope'/],
    ['an unknown event type', null, 'keyed.never', /unknown event type 'keyed.never'/],
    ['an archived event type', null, 'old.thing', /event type 'old.thing' .* is archived/],
  ])(
    'refuses %s with an idempotency key too, and keeps no claim of the key',
    async (_label, app, eventType, message) => {
      const key = `refused-${eventType}-${app ?? 'app'}`;
      await expect(
        db.pool.query(`SELECT hookline.send($1, $2, '{}', $3)`, [app ?? appId, eventType, key]),
      ).rejects.toThrow(message);
      expect(await countRows(db.pool, 'idempotency_keys', `idempotency_key = '${key}'`)).toBe(0);
      // Once the event type exists, the same key records a message: nothing was left bound to it.
      if (app === null && eventType === 'keyed.never') {
        await db.pool.query(`INSERT INTO hookline.event_types (app_id, name) VALUES ($1, 'keyed.never')`, [appId]);
        const { rows } = await db.pool.query<{ id: string }>(
          `SELECT hookline.send($1, 'keyed.never', '{}', $2) AS id`,
          [appId, key],
        );
        expect(await countRows(db.pool, 'messages', 'id = hookline.uuid_of($1)', [rows[0]!.id])).toBe(1);
      }
    },
  );

  it.each([
    ['an empty idempotency key', `''`, `'{}'::jsonb`, /idempotency_key must be 1 to 256 characters, got 0/],
    [
      'a 257-character idempotency key',
      `repeat('k', 257)`,
      `'{}'::jsonb`,
      /idempotency_key must be 1 to 256 characters, got 257/,
    ],
    ['a payload that is a string', 'NULL', `'"str"'::jsonb`, /payload must be a JSON object, got string/],
    ['a payload that is an array', 'NULL', `'[1, 2]'::jsonb`, /payload must be a JSON object, got array/],
    ['a payload that is a number', 'NULL', `'123'::jsonb`, /payload must be a JSON object, got number/],
    ['a payload that is JSON null', 'NULL', `'null'::jsonb`, /payload must be a JSON object, got null/],
    ['a payload that is a boolean', 'NULL', `'true'::jsonb`, /payload must be a JSON object, got boolean/],
    [
      'an idempotency key with a tab',
      `E'key\\t1'`,
      `'{}'::jsonb`,
      /idempotency_key must be printable ASCII without spaces; character 4 is U\+0009/,
    ],
    [
      'an idempotency key with a space',
      `'key 1'`,
      `'{}'::jsonb`,
      /idempotency_key must be printable ASCII without spaces; character 4 is U\+0020/,
    ],
    [
      'an idempotency key with a non-ASCII letter',
      `'clé-1'`,
      `'{}'::jsonb`,
      /idempotency_key must be printable ASCII without spaces; character 3 is U\+00E9/,
    ],
    [
      'an idempotency key with an emoji',
      `'🔑'`,
      `'{}'::jsonb`,
      /idempotency_key must be printable ASCII without spaces; character 1 is U\+1F511/,
    ],
    [
      'a payload over the 1 MiB limit',
      'NULL',
      `jsonb_build_object('blob', repeat('x', 5 * 1024 * 1024))`,
      /payload is 5242892 bytes as JSON, more than the limit of 1048576 bytes/,
    ],
    [
      // Small as stored (a few bytes a number), over the limit as text: the stored size bounds nothing.
      'a payload of a few hundred stored bytes that is over 1 MiB as JSON',
      'NULL',
      `jsonb_build_object('n', (SELECT jsonb_agg('1e131071'::numeric) FROM generate_series(1, 9)))`,
      /payload is 1179\d{3} bytes as JSON, more than the limit of 1048576 bytes/,
    ],
    [
      'a payload of control characters, 6 bytes each as JSON',
      'NULL',
      `jsonb_build_object('c', repeat(chr(1), 200000))`,
      /payload is 1200009 bytes as JSON, more than the limit of 1048576 bytes/,
    ],
  ])('refuses %s, as the REST API does', async (_label, key, payload, message) => {
    const before = await countRows(db.pool, 'messages');
    await expect(
      db.pool.query(`SELECT hookline.send($1, 'invoice.paid', ${payload}, ${key})`, [appId]),
    ).rejects.toThrow(message);
    expect(await countRows(db.pool, 'messages')).toBe(before);
  });

  it('takes its payload limit from HOOKLINE_MAX_PAYLOAD_BYTES, as npm start writes it into the database', async () => {
    await applyPayloadLimit(db.url, 4096);
    try {
      await expect(
        db.pool.query(`SELECT hookline.send($1, 'invoice.paid', jsonb_build_object('blob', repeat('x', 5000)))`, [
          appId,
        ]),
      ).rejects.toThrow(/more than the limit of 4096 bytes/);
      await expect(
        db.pool.query(
          `SELECT hookline.http_post('https://example.com/x', jsonb_build_object('blob', repeat('x', 5000)))`,
        ),
      ).rejects.toThrow(/hookline.http_post: payload is 5012 bytes as JSON, more than the limit of 4096 bytes/);
      await db.pool.query(`SELECT hookline.send($1, 'invoice.paid', jsonb_build_object('blob', repeat('x', 3000)))`, [
        appId,
      ]);
    } finally {
      await applyPayloadLimit(db.url, 1_048_576);
    }
  });

  it('accepts a 256-character key and a payload just under the limit', async () => {
    const { rows } = await db.pool.query<{ id: string }>(
      `SELECT hookline.send($1, 'invoice.paid', jsonb_build_object('blob', repeat('x', 1048576 - 20)), repeat('k', 256)) AS id`,
      [appId],
    );
    expect(rows[0]!.id).toMatch(/^msg_/);
  });

  it('takes no lock on the app or endpoint rows that another transaction would wait for', async () => {
    // With foreign keys, every producer's insert share-locked the app row (and each endpoint row), so
    // all producers of one app queued behind anything that locked it, and behind each other's
    // MultiXacts. Now an open producer transaction leaves both rows free.
    const producer = await db.pool.connect();
    const other = await db.pool.connect();
    try {
      await producer.query('BEGIN');
      await producer.query(`SELECT hookline.send($1, 'invoice.paid', '{"open": true}')`, [appId]);
      await other.query('BEGIN');
      await other.query(`SET LOCAL lock_timeout = '200ms'`);
      await expect(other.query('SELECT id FROM hookline.apps WHERE id = $1 FOR UPDATE', [appId])).resolves.toBeTruthy();
      await expect(
        other.query('SELECT id FROM hookline.endpoints WHERE app_id = $1 FOR UPDATE', [appId]),
      ).resolves.toBeTruthy();
      await other.query('ROLLBACK');
      await producer.query('COMMIT');
    } finally {
      producer.release();
      other.release();
    }
  });

  it('wakes workers with an empty NOTIFY once per statement', async () => {
    const listener = await db.pool.connect();
    const notifications: string[] = [];
    listener.on('notification', (notification) => notifications.push(notification.payload ?? ''));
    await listener.query('LISTEN hookline_deliveries');
    await db.pool.query(
      `SELECT hookline.send($1, 'invoice.paid', '{"secret": "not in the notify"}') FROM generate_series(1, 3)`,
      [appId],
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await listener.query('UNLISTEN *');
    listener.release();
    expect(notifications).toEqual(['']);
  });
});
