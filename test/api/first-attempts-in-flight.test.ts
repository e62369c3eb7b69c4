// A message's first attempts being sent now have no delivery row until their outcome is written
// (migration 20261206090000_first_attempts_written_once): the API lists, counts and shows them as the
// rows they will be, refuses to cancel or replay them until then, and gives way to their rows.
import { beforeAll, describe, expect, it } from 'vitest';
import { publicDeliveryId } from '../../lib/database/ids';
import { fanOutOnce } from '../../worker/fan-out';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { call, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';

let ctx: ApiTestContext;

beforeAll(async () => {
  ctx = await setUpApiTest();
});

const get = (path: string, query: Record<string, string | number> = {}) =>
  call('GET', path, { key: ctx.adminKey, query });

describe('first attempts in flight', () => {
  it('are listed, counted and shown as delivering, cannot be cancelled or replayed yet, and give way to their rows', async () => {
    const appId = await createApp(ctx.db.pool, 'Salusa');
    await createEventType(ctx.db.pool, appId, 'sardaukar.drill');
    const endpointIds = [
      (await createEndpoint(ctx.db.pool, appId, 'http://127.0.0.1:9/a')).id,
      (await createEndpoint(ctx.db.pool, appId, 'http://127.0.0.1:9/b')).id,
    ];
    const sent = await call('POST', `/v1/apps/${appId}/messages`, {
      key: ctx.adminKey,
      body: { eventType: 'sardaukar.drill', payload: { drill: 1 } },
    });
    expect(sent.status, sent.text).toBe(202);
    const messageId = sent.body.id as string;
    const deliveries = `/v1/apps/${appId}/deliveries`;

    // Not fanned out yet: no delivery of any kind.
    expect((await get(deliveries, { messageId })).body.data).toEqual([]);

    // A worker's fan-out leases both first attempts to itself (worker/sql/fan-out-messages.sql) and
    // would send them now; their rows are written with their outcomes. Its ids are stored ones (uuid:
    // migration 20261208090000_ids_as_uuid); the API shows them public.
    const leased = (
      await fanOutOnce(ctx.db.pool, { workerId: 'worker-salusa', messages: 10, room: 10, leaseSeconds: 60 })
    ).flatMap((row) => (row.id === null ? [] : [{ ...row, id: publicDeliveryId(row.id) }]));
    expect(leased.map((row) => row.endpoint_id).sort()).toEqual([...endpointIds].sort());
    const ids = leased.map((row) => row.id).sort((a, b) => (a < b ? 1 : -1));
    const { rows: written } = await ctx.db.pool.query(
      `SELECT id FROM hookline.deliveries WHERE hookline.public_id('dlv', id) = ANY ($1)`,
      [ids],
    );
    expect(written).toEqual([]);

    // Listed newest first (their message's time, then id), a page at a time.
    const listed = await get(deliveries, { messageId });
    expect(listed.status, listed.text).toBe(200);
    expect(
      listed.body.data.map((d: Record<string, unknown>) => [
        d.id,
        d.messageId,
        d.state,
        d.attemptCount,
        d.lastAttemptAt,
      ]),
    ).toEqual(ids.map((id) => [id, messageId, 'delivering', 0, null]));
    const first = await get(deliveries, { messageId, limit: 1 });
    expect(first.body.data.map((d: { id: string }) => d.id)).toEqual([ids[0]]);
    const second = await get(deliveries, { messageId, limit: 1, cursor: first.body.nextCursor });
    expect(second.body.data.map((d: { id: string }) => d.id)).toEqual([ids[1]]);
    expect(second.body.nextCursor).toBeNull();
    // Each is in its endpoint's list, and found by its id.
    for (const row of leased) {
      expect(
        (await get(deliveries, { endpointId: row.endpoint_id })).body.data.map((d: Record<string, unknown>) => [
          d.id,
          d.state,
        ]),
      ).toEqual([[row.id, 'delivering']]);
      expect((await get(deliveries, { id: row.id })).body.data.map((d: { id: string }) => d.id)).toEqual([row.id]);
    }
    // A filter they do not pass leaves them out.
    expect((await get(deliveries, { messageId, state: 'succeeded' })).body.data).toEqual([]);
    expect((await get(deliveries, { messageId, state: 'delivering' })).body.data).toHaveLength(2);

    // So does the message's own page, oldest first.
    const message = await get(`/v1/apps/${appId}/messages/${messageId}`);
    expect(message.body.deliveries.map((d: Record<string, unknown>) => [d.id, d.state, d.attemptCount])).toEqual(
      [...ids].reverse().map((id) => [id, 'delivering', 0]),
    );

    // The message list counts them.
    const messages = await get(`/v1/apps/${appId}/messages`);
    const listedMessage = messages.body.data.find((m: { id: string }) => m.id === messageId);
    expect(listedMessage.outcome).toMatchObject({ deliveries: 2, delivering: 2, waiting: 0, succeeded: 0 });

    // A delivery's page exists for each, with no attempt yet.
    const page = await get(`${deliveries}/${ids[0]}`);
    expect(page.status, page.text).toBe(200);
    expect(page.body).toMatchObject({ id: ids[0], messageId, state: 'delivering', attemptCount: 0, attempts: [] });

    // Nothing to cancel or replay until the attempt's outcome is written.
    const cancel = await call('POST', `${deliveries}/${ids[0]}/cancel`, { key: ctx.adminKey });
    expectError(cancel, 409, 'delivery_in_flight');
    expect(cancel.body.error.message).toMatch(/first time.*cancel it once this attempt is recorded/);
    expectError(await call('POST', `${deliveries}/${ids[0]}/replay`, { key: ctx.adminKey }), 409, 'delivery_in_flight');
    // An id no delivery has is still not found.
    expectError(await get(`${deliveries}/dlv_${'0'.repeat(32)}`), 404, 'not_found');

    // The first one's outcome is written, under the id it was listed with (as the worker's flush writes it).
    await ctx.db.pool.query(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
                                        next_attempt_at, last_attempt_at, last_status_code, last_duration_ms,
                                        created_at, updated_at)
       SELECT hookline.uuid_of($1), m.app_id, m.id, $2, m.event_type, 'succeeded', 1, now(), now(), 200, 3, m.created_at, now()
         FROM hookline.messages AS m WHERE m.app_id = $3 AND m.id = hookline.uuid_of($4)`,
      [ids[0], leased.find((row) => row.id === ids[0])!.endpoint_id, appId, messageId],
    );
    const after = await get(deliveries, { messageId });
    expect(after.body.data.map((d: Record<string, unknown>) => [d.id, d.state, d.attemptCount])).toEqual([
      [ids[0], 'succeeded', 1],
      [ids[1], 'delivering', 0],
    ]);
    expect(
      (await get(`/v1/apps/${appId}/messages/${messageId}`)).body.deliveries.map((d: Record<string, unknown>) => [
        d.id,
        d.state,
      ]),
    ).toEqual([
      [ids[1], 'delivering'],
      [ids[0], 'succeeded'],
    ]);
    const firstEndpoint = leased.find((row) => row.id === ids[0])!.endpoint_id;
    expect(
      (await get(deliveries, { endpointId: firstEndpoint })).body.data.map((d: Record<string, unknown>) => [
        d.id,
        d.state,
      ]),
    ).toEqual([[ids[0], 'succeeded']]);
    const counted = (await get(`/v1/apps/${appId}/messages`)).body.data.find((m: { id: string }) => m.id === messageId);
    expect(counted.outcome).toMatchObject({ deliveries: 2, delivering: 1, succeeded: 1 });
  });
});
