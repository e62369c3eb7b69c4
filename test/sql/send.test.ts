import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database';
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
  invoicesOnly = (await createEndpoint(db.pool, appId, 'https://example.com/invoices', { eventTypes: ['invoice.paid'] })).id;
  await createEndpoint(db.pool, appId, 'https://example.com/off', { enabled: false });
  await createEndpoint(db.pool, otherAppId, 'https://example.com/other-app');
});

describe('hookline.send', () => {
  it('records the message and one pending delivery per matching enabled endpoint of that app only', async () => {
    const { rows } = await db.pool.query<{ id: string }>(
      `SELECT hookline.send($1, 'invoice.paid', '{"amount": 42}') AS id`,
      [appId],
    );
    const messageId = rows[0]!.id;
    expect(messageId).toMatch(/^msg_[0-9a-f]{32}$/);
    const deliveries = await db.pool.query(
      'SELECT endpoint_id, state, app_id, attempt_count FROM hookline.deliveries WHERE message_id = $1 ORDER BY endpoint_id',
      [messageId],
    );
    expect(deliveries.rows.map((row) => row.endpoint_id).sort()).toEqual([allEvents, invoicesOnly].sort());
    expect(deliveries.rows.every((row) => row.state === 'pending' && row.app_id === appId && row.attempt_count === 0)).toBe(true);

    const filtered = await db.pool.query<{ id: string }>(`SELECT hookline.send($1, 'user.created', '{}') AS id`, [appId]);
    const filteredDeliveries = await db.pool.query('SELECT endpoint_id FROM hookline.deliveries WHERE message_id = $1', [
      filtered.rows[0]!.id,
    ]);
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
    expect(await countRows(db.pool, 'deliveries', `message_id NOT IN (SELECT id FROM hookline.messages)`)).toBe(0);
  });

  it('returns the existing message for a repeated idempotency key and records nothing new', async () => {
    const first = await db.pool.query<{ id: string }>(`SELECT hookline.send($1, 'invoice.paid', '{"n":1}', 'key-1') AS id`, [appId]);
    const deliveriesBefore = await countRows(db.pool, 'deliveries');
    const second = await db.pool.query<{ id: string }>(`SELECT hookline.send($1, 'invoice.paid', '{"n":2}', 'key-1') AS id`, [appId]);
    expect(second.rows[0]!.id).toBe(first.rows[0]!.id);
    expect(await countRows(db.pool, 'deliveries')).toBe(deliveriesBefore);
    // The key is per app: another app may use the same key.
    const otherApp = await db.pool.query<{ id: string }>(`SELECT hookline.send($1, 'invoice.paid', '{}', 'key-1') AS id`, [otherAppId]);
    expect(otherApp.rows[0]!.id).not.toBe(first.rows[0]!.id);
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
    await expect(db.pool.query(`SELECT hookline.send($1, $2, '{}')`, [app ?? appId, eventType])).rejects.toThrow(message);
    expect(await countRows(db.pool, 'messages')).toBe(before);
  });

  it('wakes workers with an empty NOTIFY once per statement', async () => {
    const listener = await db.pool.connect();
    const notifications: string[] = [];
    listener.on('notification', (notification) => notifications.push(notification.payload ?? ''));
    await listener.query('LISTEN hookline_deliveries');
    await db.pool.query(`SELECT hookline.send($1, 'invoice.paid', '{"secret": "not in the notify"}') FROM generate_series(1, 3)`, [appId]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await listener.query('UNLISTEN *');
    listener.release();
    expect(notifications).toEqual(['']);
  });
});
