// /api/v1/apps/{appId}/messages: create (fan-out through hookline.send), list with filters, get with
// deliveries, replay, with the errors each can answer. Idempotency has its own file.
import { beforeAll, describe, expect, it } from 'vitest';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { call, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';
import { insertDelivery, rowsAsText } from './support/world';
import { fanOutQueued } from '../support/deliveries';

let ctx: ApiTestContext;
let appId: string;
let all: string;
let invoicesOnly: string;
let disabled: string;

beforeAll(async () => {
  ctx = await setUpApiTest();
  appId = await createApp(ctx.db.pool, 'messages');
  await createEventType(ctx.db.pool, appId, 'invoice.paid');
  await createEventType(ctx.db.pool, appId, 'user.created');
  await createEventType(ctx.db.pool, appId, 'old.type', true);
  all = (await createEndpoint(ctx.db.pool, appId, 'https://example.com/all')).id;
  invoicesOnly = (
    await createEndpoint(ctx.db.pool, appId, 'https://example.com/invoices', { eventTypes: ['invoice.paid'] })
  ).id;
  disabled = (await createEndpoint(ctx.db.pool, appId, 'https://example.com/off', { enabled: false })).id;
});

const messages = () => `/v1/apps/${appId}/messages`;
const unknownMessageIds = [
  ['an id no message has', `msg_${'0'.repeat(32)}`],
  ['text that is no message id', 'msg_unknown'],
  ['a delivery id', `dlv_${'0'.repeat(32)}`],
];
const send = (body: unknown, headers: Record<string, string> = {}) =>
  call('POST', messages(), { key: ctx.adminKey, body, headers });

describe('POST /apps/{appId}/messages', () => {
  it('records the message and one pending delivery per enabled endpoint subscribed to its type', async () => {
    const payload = { invoice: 'in_1', amount: 4200, lines: [{ sku: 'spice', qty: 3 }], note: 'ünïcödé ✓' };
    const response = await send({ eventType: 'invoice.paid', payload });
    expect(response.status, response.text).toBe(202);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^msg_/),
      appId,
      eventType: 'invoice.paid',
      payload,
      idempotencyKey: null,
      createdAt: expect.any(String),
    });
    // Accepted: the deliveries are a worker's fan-out away (here run as a worker runs it).
    expect(await countRows(ctx.db.pool, 'deliveries', 'message_id = hookline.uuid_of($1)', [response.body.id])).toBe(0);
    await fanOutQueued(ctx.db.pool);
    const { rows } = await ctx.db.pool.query(
      'SELECT endpoint_id, state FROM hookline.deliveries WHERE message_id = hookline.uuid_of($1) ORDER BY endpoint_id',
      [response.body.id],
    );
    expect(rows).toEqual([all, invoicesOnly].sort().map((endpoint_id) => ({ endpoint_id, state: 'pending' })));

    const other = await send({ eventType: 'user.created', payload: {} });
    await fanOutQueued(ctx.db.pool);
    const otherDeliveries = await ctx.db.pool.query(
      'SELECT endpoint_id FROM hookline.deliveries WHERE message_id = hookline.uuid_of($1)',
      [other.body.id],
    );
    expect(otherDeliveries.rows).toEqual([{ endpoint_id: all }]);
    expect(await countRows(ctx.db.pool, 'deliveries', 'endpoint_id = $1', [disabled])).toBe(0);
  });

  it.each([
    ['an unknown event type', { eventType: 'invoice.lost', payload: {} }, 'eventType', 'does not exist'],
    ['an archived event type', { eventType: 'old.type', payload: {} }, 'eventType', 'archived'],
    ['a malformed event type', { eventType: 'invoice paid', payload: {} }, 'eventType', ''],
    ['a missing event type', { payload: {} }, 'eventType', ''],
    ['a payload that is an array', { eventType: 'invoice.paid', payload: [1, 2] }, 'payload', ''],
    ['a payload that is a string', { eventType: 'invoice.paid', payload: 'hello' }, 'payload', ''],
    ['a missing payload', { eventType: 'invoice.paid' }, 'payload', ''],
    [
      'a NUL character in the payload',
      { eventType: 'invoice.paid', payload: { text: 'a\u0000b' } },
      'payload.text',
      'NUL',
    ],
    ['an unknown field', { eventType: 'invoice.paid', payload: {}, endpointId: 'ep_x' }, '', 'endpointId'],
  ])('refuses %s with 422 naming the field, recording nothing', async (_label, body, field, words) => {
    const before = await countRows(ctx.db.pool, 'messages');
    const response = await send(body);
    expectError(response, 422, 'validation_failed', field);
    expect(response.body.error.message).toContain(words);
    expect(await countRows(ctx.db.pool, 'messages')).toBe(before);
  });

  it('refuses a payload nested deeper than 64 levels with 422 rather than a database error', async () => {
    let deep: unknown = { end: true };
    for (let i = 0; i < 100; i++) deep = { d: deep };
    const response = await send({ eventType: 'invoice.paid', payload: deep });
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.message).toContain('nested');
  });

  it('answers 404 for an unknown app', async () => {
    expectError(
      await call('POST', '/v1/apps/app_unknown/messages', {
        key: ctx.adminKey,
        body: { eventType: 'invoice.paid', payload: {} },
      }),
      404,
      'not_found',
    );
  });
});

describe('GET /apps/{appId}/messages', () => {
  it('filters by event type and by a range of the time its id carries, newest first', async () => {
    const app = await createApp(ctx.db.pool, 'listing');
    await createEventType(ctx.db.pool, app, 'a.type');
    await createEventType(ctx.db.pool, app, 'b.type');
    // As a producer writes them: the id carries the time created_at says (the list by event type walks
    // by id, newest first). Stored as uuid; the API shows them public.
    const insert = async (eventType: string, hoursAgo: number) =>
      (
        await ctx.db.pool.query<{ id: string }>(
          `INSERT INTO hookline.messages (id, app_id, event_type, payload, created_at, written_by)
           SELECT (substr(hookline.id_at('', t), 1, 12) || substr(hookline.new_id(''), 14))::uuid, $1, $2, '{}', t, NULL
             FROM (SELECT now() - make_interval(hours => $3) AS t) AS at
           RETURNING hookline.public_id('msg', id) AS id`,
          [app, eventType, hoursAgo],
        )
      ).rows[0]!.id;
    const a3 = await insert('a.type', 3);
    const b2 = await insert('b.type', 2);
    const a1 = await insert('a.type', 1);
    const ids = async (query: Record<string, string>) => {
      const response = await call('GET', `/v1/apps/${app}/messages`, { key: ctx.adminKey, query });
      expect(response.status, response.text).toBe(200);
      return response.body.data.map((message: { id: string }) => message.id);
    };
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    expect(await ids({})).toEqual([a1, b2, a3]);
    expect(await ids({ eventType: 'a.type' })).toEqual([a1, a3]);
    expect(await ids({ from: hoursAgo(2.5) })).toEqual([a1, b2]);
    expect(await ids({ to: hoursAgo(1.5) })).toEqual([b2, a3]);
    expect(await ids({ from: hoursAgo(2.5), to: hoursAgo(1.5) })).toEqual([b2]);
    expect(await ids({ eventType: 'b.type', from: hoursAgo(1.5) })).toEqual([]);
    // The range is the time a message's id carries (when its producer wrote it), not the start of the
    // producer's transaction: one that began 2.6 hours ago and wrote its message 2.4 hours ago is in a
    // range from 2.5 hours ago, and not in one before it.
    const { rows: late } = await ctx.db.pool.query<{ id: string }>(
      `INSERT INTO hookline.messages (id, app_id, event_type, payload, created_at, written_by)
       SELECT (substr(hookline.id_at('', now() - interval '2.4 hours'), 1, 12) || substr(hookline.new_id(''), 14))::uuid,
              $1, 'b.type', '{}', now() - interval '2.6 hours', NULL
       RETURNING hookline.public_id('msg', id) AS id`,
      [app],
    );
    expect(await ids({ from: hoursAgo(2.5), to: hoursAgo(1.5) })).toEqual([b2, late[0]!.id]);
    expect(await ids({ to: hoursAgo(2.5) })).toEqual([a3]);
  });

  it("finds a message by id, idempotency key, its deliveries' outcome and a payload field, with each outcome counted", async () => {
    const app = await createApp(ctx.db.pool, 'finding');
    await createEventType(ctx.db.pool, app, 'invoice.paid');
    const one = (await createEndpoint(ctx.db.pool, app, 'https://example.com/find/1')).id;
    const two = (await createEndpoint(ctx.db.pool, app, 'https://example.com/find/2')).id;
    // m1: delivered to both; m2: one dead after 8 attempts (503), one retrying (timeout, 2 attempts);
    // m3: one waiting; m4: no delivery at all.
    const m1 = (
      await insertDelivery(ctx.db.pool, {
        appId: app,
        endpointId: one,
        state: 'succeeded',
        attemptCount: 1,
        lastStatusCode: 200,
        createdSecondsAgo: 400,
      })
    ).messageId;
    await ctx.db.pool.query(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count, last_status_code)
       VALUES (hookline.new_uuid(hookline.uuid_of($2)), $1, hookline.uuid_of($2), $3, 'invoice.paid', 'succeeded', 1, 200)`,
      [app, m1, two],
    );
    const m2 = (
      await insertDelivery(ctx.db.pool, {
        appId: app,
        endpointId: one,
        state: 'dead',
        attemptCount: 8,
        lastStatusCode: 503,
        lastErrorClass: 'http_5xx',
        createdSecondsAgo: 300,
      })
    ).messageId;
    await ctx.db.pool.query(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count, last_error_class,
                                        claimable_at)
       VALUES (hookline.new_uuid(hookline.uuid_of($2)), $1, hookline.uuid_of($2), $3, 'invoice.paid', 'pending', 2, 'timeout',
               now())`,
      [app, m2, two],
    );
    const m3 = (
      await insertDelivery(ctx.db.pool, { appId: app, endpointId: one, state: 'pending', createdSecondsAgo: 200 })
    ).messageId;
    const m4 = (
      await ctx.db.pool.query<{ id: string }>(
        `WITH m AS (
           INSERT INTO hookline.messages (app_id, event_type, payload, idempotency_key, created_at, written_by)
           VALUES ($1, 'invoice.paid', '{"customer": {"id": "cus_42", "tier": 3}}', 'order-7', now() - interval '100 seconds', NULL)
           RETURNING id, app_id, idempotency_key
         ), k AS (
           INSERT INTO hookline.idempotency_keys (app_id, idempotency_key, message_id)
           SELECT app_id, idempotency_key, id FROM m
         )
         SELECT hookline.public_id('msg', id) AS id FROM m`,
        [app],
      )
    ).rows[0]!.id;
    const list = async (query: Record<string, string>) => {
      const response = await call('GET', `/v1/apps/${app}/messages`, { key: ctx.adminKey, query });
      expect(response.status, response.text).toBe(200);
      return response.body.data as { id: string; outcome: Record<string, number> }[];
    };
    const ids = async (query: Record<string, string>) => (await list(query)).map((message) => message.id);

    const zero = { deliveries: 0, waiting: 0, retrying: 0, delivering: 0, succeeded: 0, dead: 0, cancelled: 0 };
    expect(Object.fromEntries((await list({})).map((message) => [message.id, message.outcome]))).toEqual({
      [m1]: { ...zero, deliveries: 2, succeeded: 2 },
      [m2]: { ...zero, deliveries: 2, dead: 1, retrying: 1 },
      [m3]: { ...zero, deliveries: 1, waiting: 1 },
      [m4]: zero,
    });
    expect(await ids({ id: m2 })).toEqual([m2]);
    expect(await ids({ idempotencyKey: 'order-7' })).toEqual([m4]);
    expect(await ids({ idempotencyKey: 'order-8' })).toEqual([]);
    expect(await ids({ statusCode: '503' })).toEqual([m2]);
    expect(await ids({ statusCode: '200' })).toEqual([m1]);
    expect(await ids({ errorClass: 'timeout' })).toEqual([m2]);
    expect(await ids({ minAttempts: '1' })).toEqual([m2, m1]);
    expect(await ids({ minAttempts: '3' })).toEqual([m2]);
    // A condition on deliveries is a search, which says how far back it looked; with one message asked
    // for, it looks at that message alone.
    const searched = await call('GET', `/v1/apps/${app}/messages`, { key: ctx.adminKey, query: { statusCode: '503' } });
    expect(searched.body.searchedBackTo).toEqual(expect.any(String));
    expect(await ids({ statusCode: '503', id: m2 })).toEqual([m2]);
    expect(await ids({ statusCode: '503', id: m1 })).toEqual([]);
    expect(await ids({ minAttempts: '1', idempotencyKey: 'order-8' })).toEqual([]);
    // Combined with the existing filters: nothing in m2's window but m2.
    const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
    expect(await ids({ errorClass: 'timeout', from: ago(250) })).toEqual([]);

    // Payload search: a dot path equal to a JSON value or a plain string, over any range (test/api/search.test.ts
    // has the rest of it).
    const window = { from: ago(3600), to: ago(-60) };
    expect(await ids({ ...window, payloadPath: 'customer.id', payloadValue: 'cus_42' })).toEqual([m4]);
    expect(await ids({ ...window, payloadPath: 'customer.id', payloadValue: '"cus_42"' })).toEqual([m4]);
    expect(await ids({ ...window, payloadPath: 'customer.tier', payloadValue: '3' })).toEqual([m4]);
    expect(await ids({ ...window, payloadPath: 'customer.tier', payloadValue: '"3"' })).toEqual([]);
    expect(await ids({ payloadPath: 'customer.id', payloadValue: 'cus_42' })).toEqual([m4]);
    expect(
      await ids({ from: ago(3 * 86_400), to: ago(0), payloadPath: 'customer.id', payloadValue: 'cus_42' }),
    ).toEqual([m4]);
    expectError(
      await call('GET', `/v1/apps/${app}/messages`, { key: ctx.adminKey, query: { ...window, payloadValue: 'x' } }),
      400,
      'invalid_query',
      'payloadPath',
    );
  });

  it.each([
    ['a malformed date', { from: 'last tuesday' }, 'from'],
    ['an impossible date', { to: '2026-02-30T00:00:00Z' }, 'to'],
    ['year 0, which Postgres does not have', { from: '0000-06-01T00:00:00Z' }, 'from'],
    ['a malformed event type', { eventType: 'a b' }, 'eventType'],
    ['limit 0', { limit: '0' }, 'limit'],
    ['limit 251', { limit: '251' }, 'limit'],
    ['a limit that is not a number', { limit: 'ten' }, 'limit'],
    ['a cursor that is not ours', { cursor: 'garbage' }, 'cursor'],
    ['a payload path with spaces', { payloadPath: 'a b', payloadValue: '1' }, 'payloadPath'],
    ['a status code out of range', { statusCode: '99' }, 'statusCode'],
    ['an idempotency key with a space', { idempotencyKey: 'a b' }, 'idempotencyKey'],
  ])('answers 400 for %s, naming the parameter', async (_label, query, field) => {
    expectError(
      await call('GET', messages(), { key: ctx.adminKey, query }),
      400,
      field === 'cursor' ? 'invalid_cursor' : 'invalid_query',
      field,
    );
  });
});

describe('GET /apps/{appId}/messages/{messageId}', () => {
  it('returns the message with its deliveries', async () => {
    const sent = await send({ eventType: 'invoice.paid', payload: { n: 1 } });
    await fanOutQueued(ctx.db.pool);
    const response = await call('GET', `${messages()}/${sent.body.id}`, { key: ctx.adminKey });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ id: sent.body.id, eventType: 'invoice.paid', payload: { n: 1 } });
    expect(response.body.deliveries.map((delivery: { endpointId: string }) => delivery.endpointId).sort()).toEqual(
      [all, invoicesOnly].sort(),
    );
    expect(response.body.deliveries[0]).toMatchObject({
      messageId: sent.body.id,
      state: 'waiting',
      attemptCount: 0,
      endpointUrl: expect.stringMatching(/^https:\/\/example.com\//),
    });
  });

  // Ids are stored as uuid: one that is no message id never reaches PostgreSQL, and is as unknown.
  it.each(unknownMessageIds)('answers 404 for %s', async (_label, id) => {
    expectError(await call('GET', `${messages()}/${id}`, { key: ctx.adminKey }), 404, 'not_found');
  });
});

describe('POST /apps/{appId}/messages/{messageId}/replay', () => {
  it('puts every delivery of the message back to pending and due, except one being sent right now', async () => {
    const app = await createApp(ctx.db.pool, 'replay');
    await createEventType(ctx.db.pool, app, 'invoice.paid');
    const endpoints = await Promise.all(
      ['a', 'b', 'c'].map((name) => createEndpoint(ctx.db.pool, app, `https://example.com/${name}`)),
    );
    const { rows } = await ctx.db.pool.query<{ id: string }>(`SELECT hookline.send($1, 'invoice.paid', '{}') AS id`, [
      app,
    ]);
    const messageId = rows[0]!.id;
    await fanOutQueued(ctx.db.pool);
    const states = ['succeeded', 'dead', 'delivering'];
    for (const [index, endpoint] of endpoints.entries()) {
      await ctx.db.pool.query(
        `UPDATE hookline.deliveries SET state = $1, attempt_count = 3, next_attempt_at = now() + interval '1 hour',
                claimable_at = CASE WHEN $1 = 'delivering' THEN now() + interval '1 hour' END,
                last_error_class = CASE WHEN $1 = 'dead' THEN 'timeout' END,
                lease_owner = CASE WHEN $1 = 'delivering' THEN 'w' END
          WHERE message_id = hookline.uuid_of($2) AND endpoint_id = $3`,
        [states[index], messageId, endpoint.id],
      );
    }
    const inFlight = await rowsAsText(
      ctx.db.pool,
      'deliveries',
      `message_id = hookline.uuid_of($1) AND state = 'delivering'`,
      [messageId],
    );
    const response = await call('POST', `/v1/apps/${app}/messages/${messageId}/replay`, { key: ctx.adminKey });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ replayed: 2 });
    const after = await ctx.db.pool.query(
      `SELECT state, attempt_count, next_attempt_at <= now() AS due FROM hookline.deliveries
        WHERE message_id = hookline.uuid_of($1) AND state <> 'delivering'`,
      [messageId],
    );
    expect(after.rows).toEqual([
      { state: 'pending', attempt_count: 3, due: true },
      { state: 'pending', attempt_count: 3, due: true },
    ]);
    expect(
      await rowsAsText(ctx.db.pool, 'deliveries', `message_id = hookline.uuid_of($1) AND state = 'delivering'`, [
        messageId,
      ]),
    ).toEqual(inFlight);
  });

  it.each(unknownMessageIds)('answers 404 for %s', async (_label, id) => {
    expectError(await call('POST', `${messages()}/${id}/replay`, { key: ctx.adminKey }), 404, 'not_found');
  });

  it('counts only what changed for a message whose deliveries are all in flight', async () => {
    const { messageId } = await insertDelivery(ctx.db.pool, {
      appId,
      endpointId: all,
      state: 'delivering',
      attemptCount: 1,
    });
    expect((await call('POST', `${messages()}/${messageId}/replay`, { key: ctx.adminKey })).body).toEqual({
      replayed: 0,
    });
  });
});
