// POST /apps/{appId}/messages with an Idempotency-Key: however often and however concurrently a
// request is repeated, one message (and one set of deliveries) exists; the same key with another body
// is refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { call, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';
import { fanOutQueued, waitingForFanOut } from '../support/deliveries';

let ctx: ApiTestContext;
let appId: string;

const ENDPOINTS = 3;

beforeAll(async () => {
  ctx = await setUpApiTest();
  appId = await createApp(ctx.db.pool, 'idempotency');
  await createEventType(ctx.db.pool, appId, 'invoice.paid');
  await createEventType(ctx.db.pool, appId, 'invoice.voided');
  for (let i = 0; i < ENDPOINTS; i++) await createEndpoint(ctx.db.pool, appId, `https://example.com/${i}`);
});

function send(idempotencyKey: string | undefined, body: unknown, app = appId) {
  return call('POST', `/v1/apps/${app}/messages`, {
    key: ctx.adminKey,
    body,
    headers: idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey },
  });
}

async function messagesWithKey(key: string, app = appId) {
  const { rows } = await ctx.db.pool.query<{ id: string }>(
    `SELECT hookline.public_id('msg', id) AS id FROM hookline.messages WHERE app_id = $1 AND idempotency_key = $2`,
    [app, key],
  );
  return rows.map((row) => row.id);
}

const body = { eventType: 'invoice.paid', payload: { invoice: 'in_42', amount: 4200 } };

describe('Idempotency-Key', () => {
  it('50 concurrent creates with one key record exactly one message with one set of deliveries', async () => {
    const key = 'concurrent-1';
    const responses = await Promise.all(Array.from({ length: 50 }, () => send(key, body)));
    for (const response of responses) expect(response.status, response.text).toBe(202);
    const ids = new Set(responses.map((response) => response.body.id));
    expect(ids.size).toBe(1);
    expect(await messagesWithKey(key)).toEqual([...ids]);
    expect(await waitingForFanOut(ctx.db.pool, [...ids][0])).toBe(1);
    await fanOutQueued(ctx.db.pool);
    expect(await countRows(ctx.db.pool, 'deliveries', 'message_id = hookline.uuid_of($1)', [[...ids][0]])).toBe(
      ENDPOINTS,
    );
    expect(responses[0]!.body).toMatchObject({ idempotencyKey: key, payload: body.payload });
  });

  it('50 sequential creates with one key record exactly one message and answer it each time', async () => {
    const key = 'sequential-1';
    const first = await send(key, body);
    expect(first.status, first.text).toBe(202);
    const messagesBefore = await countRows(ctx.db.pool, 'messages');
    const waitingBefore = await waitingForFanOut(ctx.db.pool);
    for (let i = 0; i < 49; i++) {
      const again = await send(key, body);
      expect(again.status, again.text).toBe(202);
      expect(again.body).toEqual(first.body);
    }
    expect(await countRows(ctx.db.pool, 'messages')).toBe(messagesBefore);
    expect(await waitingForFanOut(ctx.db.pool)).toBe(waitingBefore);
    expect(await messagesWithKey(key)).toEqual([first.body.id]);
  });

  it('treats a re-serialised body (other key order, whitespace) as the same request', async () => {
    const key = 'reordered';
    const first = await send(key, { eventType: 'invoice.paid', payload: { a: 1, b: { c: [1, 2] } } });
    const again = await call('POST', `/v1/apps/${appId}/messages`, {
      key: ctx.adminKey,
      rawBody: '{ "payload": { "b": { "c": [1,2] }, "a": 1 },\n  "eventType": "invoice.paid" }',
      headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
    });
    expect(again.status, again.text).toBe(202);
    expect(again.body.id).toBe(first.body.id);
  });

  it.each([
    ['another payload', { eventType: 'invoice.paid', payload: { invoice: 'in_42', amount: 1 } }],
    ['another event type', { eventType: 'invoice.voided', payload: body.payload }],
    ['an extra payload field', { eventType: 'invoice.paid', payload: { ...body.payload, extra: true } }],
  ])('refuses the same key with %s (409), recording nothing', async (_label, otherBody) => {
    const key = `reused-${_label.replaceAll(' ', '-')}`;
    const first = await send(key, body);
    const messagesBefore = await countRows(ctx.db.pool, 'messages');
    const deliveriesBefore = await countRows(ctx.db.pool, 'deliveries');
    const response = await send(key, otherBody);
    expectError(response, 409, 'idempotency_key_reused');
    expect(response.body.error.details).toEqual({ messageId: first.body.id });
    expect(await countRows(ctx.db.pool, 'messages')).toBe(messagesBefore);
    expect(await countRows(ctx.db.pool, 'deliveries')).toBe(deliveriesBefore);
    // The original request can still be repeated.
    expect((await send(key, body)).body.id).toBe(first.body.id);
  });

  it('50 concurrent creates with one key and 50 different bodies: one message, every other request refused', async () => {
    const key = 'concurrent-different';
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => send(key, { eventType: 'invoice.paid', payload: { attempt: i } })),
    );
    const accepted = responses.filter((response) => response.status === 202);
    const refused = responses.filter((response) => response.status === 409);
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(49);
    for (const response of refused) expect(response.body.error.details).toEqual({ messageId: accepted[0]!.body.id });
    expect(await messagesWithKey(key)).toEqual([accepted[0]!.body.id]);
  });

  it('a retry succeeds like the first request even after the event type was archived or deleted', async () => {
    await createEventType(ctx.db.pool, appId, 'short.lived');
    const retried = { eventType: 'short.lived', payload: { n: 1 } };
    const first = await send('short-lived', retried);
    expect(first.status).toBe(202);
    await ctx.db.pool.query(
      `UPDATE hookline.event_types SET archived = true WHERE app_id = $1 AND name = 'short.lived'`,
      [appId],
    );
    expect((await send('short-lived', retried)).body).toEqual(first.body);
    await ctx.db.pool.query(`DELETE FROM hookline.event_types WHERE app_id = $1 AND name = 'short.lived'`, [appId]);
    expect((await send('short-lived', retried)).body).toEqual(first.body);
    // A new key for it is refused, as the type is gone.
    expectError(await send('short-lived-2', retried), 422, 'validation_failed', 'eventType');
  });

  it('is scoped to the app: the same key in another app is another message', async () => {
    const otherApp = await createApp(ctx.db.pool, 'other');
    await createEventType(ctx.db.pool, otherApp, 'invoice.paid');
    const key = 'shared-key';
    const here = await send(key, body);
    const there = await send(key, body, otherApp);
    expect(there.status, there.text).toBe(202);
    expect(there.body.id).not.toBe(here.body.id);
    expect(await messagesWithKey(key, otherApp)).toEqual([there.body.id]);
  });

  it('without a key, every request is a new message', async () => {
    const before = await countRows(ctx.db.pool, 'messages');
    const [a, b] = await Promise.all([send(undefined, body), send(undefined, body)]);
    expect(a!.body.id).not.toBe(b!.body.id);
    expect(a!.body.idempotencyKey).toBeNull();
    expect(await countRows(ctx.db.pool, 'messages')).toBe(before + 2);
  });

  it.each([
    ['an empty key', ''],
    ['a key with a space', 'two words'],
    ['a key of 257 characters', 'k'.repeat(257)],
  ])('refuses %s with 422 naming the header', async (_label, key) => {
    const before = await countRows(ctx.db.pool, 'messages');
    expectError(await send(key, body), 422, 'validation_failed', 'Idempotency-Key');
    expect(await countRows(ctx.db.pool, 'messages')).toBe(before);
  });

  it('accepts a key of 256 printable characters', async () => {
    const key = `${'k'.repeat(255)}~`;
    expect((await send(key, body)).status).toBe(202);
    expect(await messagesWithKey(key)).toHaveLength(1);
  });
});
